package dev.tablewright.agui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.model.ModelMessage;
import dev.tablewright.agent.model.ToolCallRequest;
import dev.tablewright.json.Json;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A message of a thread as it is stored: a user's, or an assistant's step with its text, its tool calls and their
 * results (AG-UI sends a call's result as a {@code tool} message of its own; stored, it sits with its call, so a turn
 * is one user message and the assistant message that answers it). {@link #wire} gives the AG-UI messages back.
 *
 * @param calls the assistant's calls in order; a call's {@code result} is null while nobody has answered it
 */
public record ThreadMessage(String id, String role, String text, List<Call> calls) {

    public ThreadMessage {
        calls = List.copyOf(calls);
    }

    /** One tool call and, once answered, its result (JSON as text, as the model reads it). */
    public record Call(String id, String name, String arguments, String result, String resultMessageId) {
        public Call answered(String content, String messageId) {
            return new Call(id, name, arguments, content, messageId);
        }
    }

    public static ThreadMessage user(String id, String text) {
        return new ThreadMessage(id, "user", text, List.of());
    }

    /**
     * The client's messages grouped as stored: each user message on its own; an assistant message with the tool
     * messages answering its calls; consecutive assistant messages of one turn (text, then calls) kept apart, as sent.
     */
    public static List<ThreadMessage> group(List<RunAgentInput.Message> messages) {
        List<ThreadMessage> out = new ArrayList<>();
        for (RunAgentInput.Message m : messages) {
            switch (m.role()) {
                case "user" -> out.add(user(m.id(), m.content()));
                case "assistant" -> out.add(new ThreadMessage(m.id(), "assistant", m.content(),
                        m.toolCalls().stream().map(c -> new Call(c.id(), c.name(), c.arguments(), null, null)).toList()));
                case "tool" -> {
                    for (int i = out.size() - 1; i >= 0; i--) {
                        ThreadMessage owner = out.get(i);
                        if (owner.calls().stream().anyMatch(c -> c.id().equals(m.toolCallId()))) {
                            out.set(i, owner.answering(m.toolCallId(), m.content(), m.id()));
                            break;
                        }
                    }
                }
                default -> {
                    // system, developer, activity and reasoning messages are the client's own: not the conversation's
                }
            }
        }
        return out;
    }

    /** This message with call {@code toolCallId} answered. */
    public ThreadMessage answering(String toolCallId, String content, String messageId) {
        return new ThreadMessage(id, role, text, calls.stream()
                .map(c -> c.id().equals(toolCallId) ? c.answered(content, messageId) : c).toList());
    }

    /** The calls nobody has answered yet. */
    public List<Call> open() {
        return calls.stream().filter(c -> c.result() == null).toList();
    }

    /** The AG-UI messages it stands for: itself, then a {@code tool} message per answered call. */
    public List<ObjectNode> wire() {
        List<ObjectNode> out = new ArrayList<>();
        ObjectNode message = Json.object().put("id", id).put("role", role);
        if (role.equals("user") || !text.isEmpty()) {
            message.put("content", text);
        }
        if (!calls.isEmpty()) {
            ArrayNode toolCalls = message.putArray("toolCalls");
            calls.forEach(c -> toolCalls.addObject().put("id", c.id()).put("type", "function")
                    .putObject("function").put("name", c.name()).put("arguments", c.arguments()));
        }
        out.add(message);
        for (Call c : calls) {
            if (c.result() != null) {
                out.add(Json.object().put("id", c.resultMessageId()).put("role", "tool").put("toolCallId", c.id())
                        .put("content", c.result()));
            }
        }
        return out;
    }

    /** The ids of the AG-UI messages it stands for (the run's new input is what comes after them). */
    public Set<String> wireIds() {
        Set<String> ids = new java.util.LinkedHashSet<>();
        wire().forEach(m -> ids.add(m.get("id").asText()));
        return ids;
    }

    /** As the model reads it: the text or the step, then each answered call's result. */
    public List<ModelMessage> model() {
        if (role.equals("user")) {
            return List.of(new ModelMessage.User(text));
        }
        List<ModelMessage> out = new ArrayList<>();
        out.add(new ModelMessage.Assistant(text, calls.stream().map(c -> new ToolCallRequest(c.id(), c.name(), c.arguments())).toList()));
        calls.stream().filter(c -> c.result() != null).forEach(c -> out.add(new ModelMessage.ToolResult(c.id(), c.result())));
        return out;
    }

    /** As stored for display. */
    public ObjectNode json() {
        ObjectNode node = Json.object().put("id", id).put("role", role).put("text", text);
        ArrayNode array = node.putArray("calls");
        for (Call c : calls) {
            ObjectNode call = array.addObject().put("id", c.id()).put("name", c.name()).put("arguments", c.arguments());
            Json.putIfPresent(call, "result", c.result());
            Json.putIfPresent(call, "resultMessageId", c.resultMessageId());
        }
        return node;
    }

    /** A stored message read back; null when it is not one (a message of another door). */
    public static ThreadMessage read(JsonNode stored) {
        if (!stored.path("id").isTextual() || !stored.path("role").isTextual() || !stored.path("calls").isArray()) {
            return null;
        }
        List<Call> calls = new ArrayList<>();
        for (JsonNode c : stored.get("calls")) {
            calls.add(new Call(c.path("id").asText(), c.path("name").asText(), c.path("arguments").asText("{}"),
                    c.hasNonNull("result") ? c.get("result").asText() : null, c.path("resultMessageId").asText(null)));
        }
        return new ThreadMessage(stored.get("id").asText(), stored.get("role").asText(), stored.path("text").asText(""), calls);
    }
}
