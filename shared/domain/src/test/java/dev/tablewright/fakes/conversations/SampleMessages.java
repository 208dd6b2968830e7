package dev.tablewright.fakes.conversations;

import dev.tablewright.conversation.StoredMessage;

/** Stored UI messages of one text part, for the conversation store's tests; and a UI message's part, for any test. */
public final class SampleMessages {
    private SampleMessages() {
    }

    public static StoredMessage user(String id, String text) {
        return new StoredMessage(id, "user", "{\"id\":\"" + id + "\",\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"text\":\"" + text + "\"}]}");
    }

    public static StoredMessage assistant(String id, String text) {
        return new StoredMessage(id, "assistant", "{\"id\":\"" + id + "\",\"role\":\"assistant\",\"parts\":[{\"type\":\"text\",\"text\":\"" + text + "\"}]}");
    }

    /** The first part of {@code type} in a UI message (its {@code parts}); none fails the test. */
    public static com.fasterxml.jackson.databind.JsonNode part(com.fasterxml.jackson.databind.JsonNode message, String type) {
        for (com.fasterxml.jackson.databind.JsonNode p : message.path("parts")) {
            if (p.path("type").asText().equals(type)) {
                return p;
            }
        }
        throw new AssertionError("no " + type + " part in " + message);
    }
}
