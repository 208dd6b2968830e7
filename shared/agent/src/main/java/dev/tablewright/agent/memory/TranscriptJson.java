package dev.tablewright.agent.memory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.model.ModelMessage;
import dev.tablewright.agent.model.ToolCallRequest;
import dev.tablewright.json.Json;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The transcript as stored beside a conversation: {@code {"v":1,"turns":[{"key","digest","messages":[...]}]}} with
 * messages {@code {"role":"user"|"assistant"|"tool", ...}}. A document this version cannot read is no transcript
 * (the door rebuilds one from its own history), never an error.
 */
public final class TranscriptJson {

    private static final int VERSION = 1;

    private TranscriptJson() {
    }

    public static String write(Transcript transcript) {
        return Json.write(tree(transcript));
    }

    /** The document as a tree, for a keeper that stores more beside the transcript (fields this reader ignores). */
    public static ObjectNode tree(Transcript transcript) {
        ObjectNode root = Json.object().put("v", VERSION);
        ArrayNode turns = root.putArray("turns");
        for (TranscriptTurn t : transcript.turns()) {
            ObjectNode turn = turns.addObject().put("key", t.key()).put("digest", t.digest());
            ArrayNode messages = turn.putArray("messages");
            for (ModelMessage m : t.messages()) {
                switch (m) {
                    case ModelMessage.User u -> messages.addObject().put("role", "user").put("text", u.text());
                    case ModelMessage.Assistant a -> {
                        ObjectNode o = messages.addObject().put("role", "assistant").put("text", a.text());
                        ArrayNode calls = o.putArray("toolCalls");
                        a.toolCalls().forEach(c -> calls.addObject().put("id", c.id()).put("name", c.name()).put("arguments", c.arguments()));
                    }
                    case ModelMessage.ToolResult r -> messages.addObject().put("role", "tool").put("toolCallId", r.toolCallId()).put("content", r.content());
                    case ModelMessage.System s -> {
                        // the system prompt is rebuilt each step, never stored
                    }
                }
            }
        }
        return root;
    }

    public static Optional<Transcript> read(String json) {
        if (json == null || json.isBlank()) {
            return Optional.empty();
        }
        try {
            return read(Json.parse(json));
        } catch (Exception e) {
            return Optional.empty();
        }
    }

    /** The transcript of a parsed document ({@link #tree}'s shape); empty for another version or an unreadable one. */
    public static Optional<Transcript> read(JsonNode root) {
        try {
            if (root.path("v").asInt() != VERSION) {
                return Optional.empty();
            }
            List<TranscriptTurn> turns = new ArrayList<>();
            for (JsonNode t : root.path("turns")) {
                List<ModelMessage> messages = new ArrayList<>();
                for (JsonNode m : t.path("messages")) {
                    messages.add(switch (m.path("role").asText()) {
                        case "user" -> new ModelMessage.User(m.path("text").asText());
                        case "assistant" -> {
                            List<ToolCallRequest> calls = new ArrayList<>();
                            m.path("toolCalls").forEach(c -> calls.add(new ToolCallRequest(c.path("id").asText(),
                                    c.path("name").asText(), c.path("arguments").asText("{}"))));
                            yield new ModelMessage.Assistant(m.path("text").asText(), calls);
                        }
                        case "tool" -> new ModelMessage.ToolResult(m.path("toolCallId").asText(), m.path("content").asText());
                        default -> throw new IllegalArgumentException("unknown role");
                    });
                }
                turns.add(new TranscriptTurn(t.path("key").asText(null), messages, t.path("digest").asText("")));
            }
            return Optional.of(new Transcript(turns));
        } catch (Exception e) {
            return Optional.empty();
        }
    }
}
