package dev.tablewright.localstack.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One response of the chat endpoint, its UI message stream's parts (AI SDK protocol v1) shown as they arrive and
 * folded into the assistant UI message the next request sends back — the parts a {@code useChat} client keeps:
 * {@code step-start}, {@code text}, {@code tool-<name>} (with state, input, output or error) and {@code data-*}.
 * A response that resumes a paused turn continues the same assistant message.
 */
final class StreamedTurn {

    private final PrintStream out;
    private final ObjectNode assistant;
    private final ArrayNode parts;
    private final Map<String, ObjectNode> texts = new HashMap<>();
    private final Map<String, ObjectNode> tools = new HashMap<>();
    private final Map<String, String> toolNames = new HashMap<>();
    final List<JsonNode> previews = new ArrayList<>();
    final List<JsonNode> inputRequests = new ArrayList<>();
    String error;
    boolean finished;
    private boolean midLine;
    private final boolean continuing;

    /** @param continuing the assistant message a resumed turn adds to, or null for a new one */
    StreamedTurn(PrintStream out, ObjectNode continuing) {
        this.out = out;
        this.continuing = continuing != null;
        if (continuing != null) {
            this.assistant = continuing;
            this.parts = (ArrayNode) continuing.get("parts");
            for (JsonNode p : parts) {
                if (p.path("type").asText().startsWith("tool-") && p.has("toolCallId")) {
                    tools.put(p.get("toolCallId").asText(), (ObjectNode) p);
                    toolNames.put(p.get("toolCallId").asText(), p.path("type").asText().substring(5));
                }
            }
        } else {
            this.assistant = Json.object().put("id", "msg_" + Long.toHexString(System.nanoTime())).put("role", "assistant");
            this.parts = assistant.putArray("parts");
        }
    }

    ObjectNode assistantMessage() {
        return assistant;
    }

    /** One part of the stream, as it arrives. */
    void accept(JsonNode part) {
        String type = part.path("type").asText();
        switch (type) {
            case "start" -> {
                if (part.hasNonNull("messageId") && !continuing) {
                    assistant.put("id", part.get("messageId").asText());
                }
            }
            case "start-step" -> parts.addObject().put("type", "step-start");
            case "text-start" -> texts.put(part.path("id").asText(), parts.addObject().put("type", "text").put("text", "").put("state", "streaming"));
            case "text-delta" -> {
                ObjectNode text = texts.computeIfAbsent(part.path("id").asText(),
                        id -> parts.addObject().put("type", "text").put("text", "").put("state", "streaming"));
                String delta = part.path("delta").asText();
                text.put("text", text.path("text").asText() + delta);
                if (!midLine) {
                    out.print("assistant> ");
                }
                out.print(delta);
                out.flush();
                midLine = true;
            }
            case "text-end" -> {
                ObjectNode text = texts.get(part.path("id").asText());
                if (text != null) {
                    text.put("state", "done");
                }
                endLine();
            }
            case "tool-input-start" -> {
                String id = part.path("toolCallId").asText();
                String name = part.path("toolName").asText();
                toolNames.put(id, name);
                tools.put(id, parts.addObject().put("type", "tool-" + name).put("toolCallId", id).put("state", "input-streaming"));
                endLine();
                out.println("  · " + name + " …");
            }
            case "tool-input-available" -> {
                String id = part.path("toolCallId").asText();
                String name = part.path("toolName").asText(toolNames.getOrDefault(id, "tool"));
                toolNames.put(id, name);
                ObjectNode tool = tools.computeIfAbsent(id, k -> parts.addObject().put("type", "tool-" + name).put("toolCallId", k));
                tool.put("state", "input-available");
                tool.set("input", part.path("input").deepCopy());
            }
            case "tool-output-available" -> {
                String id = part.path("toolCallId").asText();
                ObjectNode tool = tools.get(id);
                if (tool != null) {
                    tool.put("state", "output-available");
                    tool.set("output", part.path("output").deepCopy());
                }
                out.println("  ✓ " + toolNames.getOrDefault(id, "tool") + summary(part.path("output")));
            }
            case "tool-output-error" -> {
                String id = part.path("toolCallId").asText();
                ObjectNode tool = tools.get(id);
                if (tool != null) {
                    tool.put("state", "output-error");
                    tool.put("errorText", part.path("errorText").asText());
                }
                out.println("  ✗ " + toolNames.getOrDefault(id, "tool") + ": " + part.path("errorText").asText());
            }
            case "error" -> {
                endLine();
                error = part.path("errorText").asText("error");
                out.println("  ! " + error);
            }
            case "finish" -> finished = true;
            default -> {
                if (type.startsWith("data-")) {
                    ObjectNode kept = parts.addObject().put("type", type);
                    if (part.has("id")) {
                        kept.set("id", part.get("id"));
                    }
                    kept.set("data", part.path("data").deepCopy());
                    data(type.substring(5), part.path("data"));
                }
            }
        }
    }

    private void data(String name, JsonNode data) {
        switch (name) {
            case "table-config-preview" -> previews.add(data);
            case "user-input-request" -> inputRequests.add(data);
            case "validation-errors" -> {
                endLine();
                out.println("  validation errors:");
                for (JsonNode e : data.path("errors")) {
                    out.println("    - " + e.path("field").asText("") + ": " + e.path("message").asText(e.asText()));
                }
            }
            default -> { }
        }
    }

    private static String summary(JsonNode output) {
        if (output.has("valid") && !output.path("valid").asBoolean()) {
            return " (invalid: " + output.path("errors").size() + " error" + (output.path("errors").size() == 1 ? "" : "s") + ")";
        }
        JsonNode applied = output.path("applied");
        if (applied.isArray() && !applied.isEmpty()) {
            List<String> items = new ArrayList<>();
            applied.forEach(a -> items.add(a.asText()));
            return ": " + String.join("; ", items);
        }
        return "";
    }

    private void endLine() {
        if (midLine) {
            out.println();
            midLine = false;
        }
    }

    /** @param done whether the stream ended with {@code [DONE]} */
    void end(boolean done) {
        finished |= done;
        endLine();
    }
}
