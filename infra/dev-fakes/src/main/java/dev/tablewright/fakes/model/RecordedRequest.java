package dev.tablewright.fakes.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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
            notifyAll();
        }

        synchronized void end(String how) {
            outcome = how;
            endedNanos = System.nanoTime();
            notifyAll();
        }

        /** Waits until {@code chunks} content chunks were sent: "a few words" of a slow answer are out. */
        public synchronized void awaitContent(int chunks, Duration timeout) throws InterruptedException, TimeoutException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (contentNanos.size() < chunks) {
                if (!outcome.equals("pending")) {
                    throw new IllegalStateException("the answer ended (" + outcome + ") after " + contentNanos.size()
                            + " of " + chunks + " chunks");
                }
                waitUntil(deadline, contentNanos.size() + " of " + chunks + " chunks sent");
            }
        }

        /** Waits until the answer has ended, whatever its outcome. */
        public synchronized void awaitEnd(Duration timeout) throws InterruptedException, TimeoutException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (outcome.equals("pending")) {
                waitUntil(deadline, "the answer still pending");
            }
        }

        private void waitUntil(long deadline, String state) throws InterruptedException, TimeoutException {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new TimeoutException(state);
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
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

    /** A Bedrock ConverseStream request ({@link BedrockModelServer}): the accessors below read it as chat-completions. */
    public boolean converse() {
        return path.startsWith("/model/");
    }

    public String model() {
        return converse() ? BedrockModelServer.modelId(this) : body.path("model").asText();
    }

    public boolean streamed() {
        return converse() || body.path("stream").asBoolean(false);
    }

    /**
     * The messages as chat-completions messages (system, user, assistant with {@code tool_calls}, tool); a Converse
     * request's blocks are read into that shape (each tool result a {@code tool} message, each text block a message
     * of its role), so assertions on what the model was sent hold for either provider.
     */
    public JsonNode messages() {
        return converse() ? converseMessages() : body.path("messages");
    }

    private JsonNode converseMessages() {
        ArrayNode out = Json.MAPPER.createArrayNode();
        body.path("system").forEach(s -> out.addObject().put("role", "system").put("content", s.path("text").asText()));
        for (JsonNode message : body.path("messages")) {
            if (message.path("role").asText().equals("assistant")) {
                StringBuilder text = new StringBuilder();
                ArrayNode calls = Json.MAPPER.createArrayNode();
                for (JsonNode block : message.path("content")) {
                    if (block.has("text")) {
                        text.append(block.get("text").asText());
                    } else if (block.has("toolUse")) {
                        JsonNode use = block.get("toolUse");
                        ObjectNode call = calls.addObject().put("id", use.path("toolUseId").asText()).put("type", "function");
                        call.putObject("function").put("name", use.path("name").asText()).put("arguments", Json.write(use.path("input")));
                    }
                }
                ObjectNode assistant = out.addObject().put("role", "assistant");
                if (text.isEmpty() && !calls.isEmpty()) {
                    assistant.putNull("content");
                } else {
                    assistant.put("content", text.toString());
                }
                if (!calls.isEmpty()) {
                    assistant.set("tool_calls", calls);
                }
            } else {
                for (JsonNode block : message.path("content")) {
                    if (block.has("toolResult")) {
                        JsonNode result = block.get("toolResult");
                        JsonNode content = result.path("content").path(0);
                        out.addObject().put("role", "tool").put("tool_call_id", result.path("toolUseId").asText())
                                .put("content", content.has("json") ? Json.write(content.get("json")) : content.path("text").asText());
                    } else if (block.has("text")) {
                        out.addObject().put("role", "user").put("content", block.get("text").asText());
                    }
                }
            }
        }
        return out;
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

    /** The tools offered, as chat-completions function tools (a Converse request's {@code toolSpec}s read that way). */
    public JsonNode tools() {
        if (!converse()) {
            return body.path("tools");
        }
        ArrayNode out = Json.MAPPER.createArrayNode();
        for (JsonNode tool : body.path("toolConfig").path("tools")) {
            JsonNode spec = tool.path("toolSpec");
            out.addObject().put("type", "function").putObject("function").put("name", spec.path("name").asText())
                    .put("description", spec.path("description").asText()).set("parameters", spec.path("inputSchema").path("json"));
        }
        return out;
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
