package dev.tablewright.fakes.conversations;

import dev.tablewright.conversation.StoredMessage;

/** Stored UI messages of one text part, for the conversation store's tests. */
public final class SampleMessages {
    private SampleMessages() {
    }

    public static StoredMessage user(String id, String text) {
        return new StoredMessage(id, "user", "{\"id\":\"" + id + "\",\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"text\":\"" + text + "\"}]}");
    }

    public static StoredMessage assistant(String id, String text) {
        return new StoredMessage(id, "assistant", "{\"id\":\"" + id + "\",\"role\":\"assistant\",\"parts\":[{\"type\":\"text\",\"text\":\"" + text + "\"}]}");
    }
}
