package dev.tablewright.infra.model;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One request the scripted model received, and how its answer went. The accessors name what tests assert on:
 * the system prompt, the messages, the tools offered.
 *
 * @param index        0 for the first request the server received, counting on
 * @param headers      request headers ({@code Authorization} replaced by {@code <redacted>})
 * @param body         the request JSON
 * @param receivedNanos {@link System#nanoTime()} when the request had been read
 */
public record RecordedRequest(int index, String path, Map<String, String> headers, JsonNode body, long receivedNanos,
                              Answer answer) {

    /** How the server answered; filled in as the answer goes out. */
    public static final class Answer {
        private volatile String outcome = "pending";
        private volatile long firstByteNanos;
        private volatile long endedNanos;
        private final List<Long> contentNanos = new ArrayList<>();

        void firstByte() {
            if (firstByteNanos == 0) {
                firstByteNanos = System.nanoTime();
            }
        }

        synchronized void contentSent() {
            contentNanos.add(System.nanoTime());
        }

        void end(String how) {
            outcome = how;
            endedNanos = System.nanoTime();
        }

        /**
         * {@code pending}, {@code completed}, {@code error <status>}, {@code disconnected} (scripted hang-up),
         * {@code cut} (scripted mid-stream cut), or {@code client-gone} (the client closed the stream early).
         */
        public String outcome() {
            return outcome;
        }

        public long firstByteNanos() {
            return firstByteNanos;
        }

        public long endedNanos() {
            return endedNanos;
        }

        /** {@link System#nanoTime()} of every content chunk (text or tool-call piece) sent, in order. */
        public synchronized List<Long> contentNanos() {
            return List.copyOf(contentNanos);
        }
    }

    public String model() {
        return body.path("model").asText();
    }

    public boolean streamed() {
        return body.path("stream").asBoolean(false);
    }

    public JsonNode messages() {
        return body.path("messages");
    }

    /** The content of the first system (or developer) message, or "" if none. */
    public String systemPrompt() {
        for (JsonNode message : messages()) {
            String role = message.path("role").asText();
            if (role.equals("system") || role.equals("developer")) {
                return contentText(message.path("content"));
            }
        }
        return "";
    }

    public JsonNode tools() {
        return body.path("tools");
    }

    /** Names of the function tools offered, in order. */
    public List<String> toolNames() {
        List<String> names = new ArrayList<>();
        tools().forEach(t -> names.add(t.path("function").path("name").asText()));
        return names;
    }

    /** The text of every system (or developer) message, in order, one after another. */
    public String systemText() {
        StringBuilder text = new StringBuilder();
        for (JsonNode message : messages()) {
            String role = message.path("role").asText();
            if (role.equals("system") || role.equals("developer")) {
                text.append(contentText(message.path("content"))).append('\n');
            }
        }
        return text.toString();
    }

    /** The messages' roles in order (system, user, assistant, tool, ...). */
    public List<String> roles() {
        List<String> roles = new ArrayList<>();
        messages().forEach(m -> roles.add(m.path("role").asText()));
        return roles;
    }

    /** Text of a message content that is a string or an array of {@code {"type":"text","text":..}} parts. */
    public static String contentText(JsonNode content) {
        if (content.isTextual()) {
            return content.asText();
        }
        StringBuilder text = new StringBuilder();
        content.forEach(part -> text.append(part.path("text").asText()));
        return text.toString();
    }
}
