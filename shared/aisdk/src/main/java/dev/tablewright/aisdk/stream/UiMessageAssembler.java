package dev.tablewright.aisdk.stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Builds the assistant's UI message from the stream's parts the way {@code useChat} does on the client (text and
 * reasoning blocks joined, one {@code tool-<name>} part per call moving through its states, {@code step-start}s,
 * non-transient {@code data-*} parts replaced by id, metadata merged), so the stored message is what the user saw.
 * A turn that continues an assistant message (a resumed tool call) starts from that message's parts.
 */
public final class UiMessageAssembler implements Consumer<ObjectNode> {

    private final ObjectNode message = Json.object();
    private final ArrayNode parts;
    private final Map<String, ObjectNode> blocks = new HashMap<>();
    private final Map<String, ObjectNode> tools = new HashMap<>();
    private final Map<String, StringBuilder> toolInputText = new HashMap<>();

    /** A new assistant message. */
    public UiMessageAssembler() {
        message.put("id", "").put("role", "assistant");
        parts = message.putArray("parts");
    }

    /** Continues {@code existing} (an assistant UI message as the client sent it). */
    public UiMessageAssembler(JsonNode existing) {
        this();
        message.put("id", existing.path("id").asText(""));
        if (existing.path("metadata").isObject()) {
            message.set("metadata", existing.get("metadata").deepCopy());
        }
        for (JsonNode p : existing.path("parts")) {
            ObjectNode copy = p.deepCopy();
            parts.add(copy);
            if (copy.has("toolCallId")) {
                tools.put(copy.path("toolCallId").asText(), copy);
            }
        }
    }

    @Override
    public void accept(ObjectNode part) {
        String type = part.path("type").asText();
        switch (type) {
            case "start" -> {
                if (part.hasNonNull("messageId")) {
                    message.put("id", part.get("messageId").asText());
                }
                mergeMetadata(part.get("messageMetadata"));
            }
            case "finish", "message-metadata" -> mergeMetadata(part.get("messageMetadata"));
            case "start-step" -> parts.addObject().put("type", "step-start");
            case "text-start", "reasoning-start" -> {
                ObjectNode block = parts.addObject().put("type", type.startsWith("text") ? "text" : "reasoning")
                        .put("text", "").put("state", "streaming");
                blocks.put(part.path("id").asText(), block);
            }
            case "text-delta", "reasoning-delta" -> {
                ObjectNode block = blocks.get(part.path("id").asText());
                if (block != null) {
                    block.put("text", block.path("text").asText() + part.path("delta").asText());
                }
            }
            case "text-end", "reasoning-end" -> {
                ObjectNode block = blocks.remove(part.path("id").asText());
                if (block != null) {
                    block.put("state", "done");
                }
            }
            case "tool-input-start" -> {
                ObjectNode tool = tool(part);
                tool.put("state", "input-streaming");
                toolInputText.put(part.path("toolCallId").asText(), new StringBuilder());
            }
            case "tool-input-delta" -> {
                StringBuilder text = toolInputText.get(part.path("toolCallId").asText());
                if (text != null) {
                    text.append(part.path("inputTextDelta").asText());
                }
            }
            case "tool-input-available" -> {
                ObjectNode tool = tool(part);
                tool.put("state", "input-available");
                tool.set("input", part.get("input"));
            }
            case "tool-input-error" -> {
                ObjectNode tool = tool(part);
                tool.put("state", "output-error");
                tool.set("rawInput", part.get("input"));
                tool.put("errorText", part.path("errorText").asText());
            }
            case "tool-output-available" -> {
                ObjectNode tool = tools.get(part.path("toolCallId").asText());
                if (tool != null) {
                    tool.put("state", "output-available");
                    tool.set("output", part.get("output"));
                }
            }
            case "tool-approval-request" -> {
                ObjectNode tool = tools.get(part.path("toolCallId").asText());
                if (tool != null) {
                    tool.put("state", "approval-requested");
                    ObjectNode approval = tool.putObject("approval").put("id", part.path("approvalId").asText());
                    if (part.hasNonNull("signature")) {
                        approval.put("signature", part.get("signature").asText());
                    }
                }
            }
            case "tool-output-denied" -> {
                ObjectNode tool = tools.get(part.path("toolCallId").asText());
                if (tool != null) {
                    tool.put("state", "output-denied");
                }
            }
            case "tool-output-error" -> {
                ObjectNode tool = tools.get(part.path("toolCallId").asText());
                if (tool != null) {
                    tool.put("state", "output-error");
                    tool.put("errorText", part.path("errorText").asText());
                }
            }
            default -> {
                if (type.startsWith("data-") && !part.path("transient").asBoolean(false)) {
                    data(part);
                }
                // error, abort, finish-step: not parts of the message
            }
        }
    }

    /** The message as assembled so far; an unfinished block or tool call stays as the client last saw it. */
    public ObjectNode message() {
        return message.deepCopy();
    }

    public String messageId() {
        return message.path("id").asText();
    }

    private ObjectNode tool(ObjectNode part) {
        String id = part.path("toolCallId").asText();
        return tools.computeIfAbsent(id, i -> parts.addObject()
                .put("type", "tool-" + part.path("toolName").asText()).put("toolCallId", i));
    }

    private void data(ObjectNode part) {
        String type = part.path("type").asText();
        String id = part.path("id").asText(null);
        if (id != null) {
            for (JsonNode existing : parts) {
                if (type.equals(existing.path("type").asText()) && id.equals(existing.path("id").asText(null))) {
                    ((ObjectNode) existing).set("data", part.get("data"));
                    return;
                }
            }
        }
        ObjectNode data = parts.addObject().put("type", type);
        if (id != null) {
            data.put("id", id);
        }
        data.set("data", part.get("data"));
    }

    private void mergeMetadata(JsonNode metadata) {
        if (metadata == null || !metadata.isObject()) {
            return;
        }
        ObjectNode into = message.path("metadata").isObject() ? (ObjectNode) message.get("metadata") : message.putObject("metadata");
        into.setAll((ObjectNode) metadata.deepCopy());
    }
}
