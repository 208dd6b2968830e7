package dev.tablewright.aisdk.stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;

/**
 * One part of the AI SDK's UI message stream (the {@code UIMessageChunk} type of the {@code ai} package), one record
 * per part type, each writing its exact wire shape ({@link #toJson}): field names must match, or the client drops
 * the part. Optional fields are null and then omitted.
 */
public sealed interface UiChunk {

    ObjectNode toJson();

    record Start(String messageId, JsonNode messageMetadata) implements UiChunk {
        public ObjectNode toJson() {
            return optional(part("start").put("messageId", messageId), "messageMetadata", messageMetadata);
        }
    }

    record StartStep() implements UiChunk {
        public ObjectNode toJson() {
            return part("start-step");
        }
    }

    record FinishStep() implements UiChunk {
        public ObjectNode toJson() {
            return part("finish-step");
        }
    }

    /** The protocol's {@code FinishReason} values. */
    enum FinishReason {
        STOP("stop"), LENGTH("length"), CONTENT_FILTER("content-filter"), TOOL_CALLS("tool-calls"),
        ERROR("error"), OTHER("other");

        public final String wire;

        FinishReason(String wire) {
            this.wire = wire;
        }
    }

    record Finish(FinishReason finishReason, JsonNode messageMetadata) implements UiChunk {
        public ObjectNode toJson() {
            ObjectNode part = part("finish");
            if (finishReason != null) {
                part.put("finishReason", finishReason.wire);
            }
            return optional(part, "messageMetadata", messageMetadata);
        }
    }

    record MessageMetadata(JsonNode messageMetadata) implements UiChunk {
        public ObjectNode toJson() {
            return part("message-metadata").set("messageMetadata", messageMetadata);
        }
    }

    /** Shown to the user as the message's error: plain text with no secret or stack trace. */
    record Error(String errorText) implements UiChunk {
        public ObjectNode toJson() {
            return part("error").put("errorText", errorText);
        }
    }

    record Abort(String reason) implements UiChunk {
        public ObjectNode toJson() {
            ObjectNode part = part("abort");
            return reason == null ? part : part.put("reason", reason);
        }
    }

    record TextStart(String id) implements UiChunk {
        public ObjectNode toJson() {
            return part("text-start").put("id", id);
        }
    }

    record TextDelta(String id, String delta) implements UiChunk {
        public ObjectNode toJson() {
            return part("text-delta").put("id", id).put("delta", delta);
        }
    }

    record TextEnd(String id) implements UiChunk {
        public ObjectNode toJson() {
            return part("text-end").put("id", id);
        }
    }

    record ReasoningStart(String id) implements UiChunk {
        public ObjectNode toJson() {
            return part("reasoning-start").put("id", id);
        }
    }

    record ReasoningDelta(String id, String delta) implements UiChunk {
        public ObjectNode toJson() {
            return part("reasoning-delta").put("id", id).put("delta", delta);
        }
    }

    record ReasoningEnd(String id) implements UiChunk {
        public ObjectNode toJson() {
            return part("reasoning-end").put("id", id);
        }
    }

    record ToolInputStart(String toolCallId, String toolName) implements UiChunk {
        public ObjectNode toJson() {
            return part("tool-input-start").put("toolCallId", toolCallId).put("toolName", toolName);
        }
    }

    record ToolInputDelta(String toolCallId, String inputTextDelta) implements UiChunk {
        public ObjectNode toJson() {
            return part("tool-input-delta").put("toolCallId", toolCallId).put("inputTextDelta", inputTextDelta);
        }
    }

    record ToolInputAvailable(String toolCallId, String toolName, JsonNode input) implements UiChunk {
        public ObjectNode toJson() {
            return (ObjectNode) part("tool-input-available").put("toolCallId", toolCallId).put("toolName", toolName)
                    .set("input", orNull(input));
        }
    }

    /** The model's input could not be parsed or did not fit the tool's schema. */
    record ToolInputError(String toolCallId, String toolName, JsonNode input, String errorText) implements UiChunk {
        public ObjectNode toJson() {
            ObjectNode part = part("tool-input-error").put("toolCallId", toolCallId).put("toolName", toolName);
            part.set("input", orNull(input));
            return part.put("errorText", errorText);
        }
    }

    record ToolOutputAvailable(String toolCallId, JsonNode output) implements UiChunk {
        public ObjectNode toJson() {
            return (ObjectNode) part("tool-output-available").put("toolCallId", toolCallId).set("output", orNull(output));
        }
    }

    record ToolOutputError(String toolCallId, String errorText) implements UiChunk {
        public ObjectNode toJson() {
            return part("tool-output-error").put("toolCallId", toolCallId).put("errorText", errorText);
        }
    }

    /**
     * The call {@code toolCallId} waits for the user's approval (AI SDK 6+); {@code signature} (AI SDK 7's
     * {@code experimental_toolApprovalSecret}) only when the server signs approvals, else omitted.
     */
    record ToolApprovalRequest(String approvalId, String toolCallId, String signature) implements UiChunk {
        public ObjectNode toJson() {
            ObjectNode part = part("tool-approval-request").put("approvalId", approvalId).put("toolCallId", toolCallId);
            return signature == null ? part : part.put("signature", signature);
        }
    }

    /** The user denied the call {@code toolCallId}: it did not run (AI SDK 6+). */
    record ToolOutputDenied(String toolCallId) implements UiChunk {
        public ObjectNode toJson() {
            return part("tool-output-denied").put("toolCallId", toolCallId);
        }
    }

    /**
     * A custom {@code data-<name>} part, e.g. {@code table-config-preview}. Parts with the same name and id replace
     * each other on the client; {@code id} may be null. A transient part is not kept in the client's message.
     */
    record Data(String name, String id, JsonNode data, boolean transientPart) implements UiChunk {
        public Data(String name, String id, JsonNode data) {
            this(name, id, data, false);
        }

        public ObjectNode toJson() {
            ObjectNode part = part("data-" + name);
            if (id != null) {
                part.put("id", id);
            }
            part.set("data", orNull(data));
            return transientPart ? part.put("transient", true) : part;
        }
    }

    private static ObjectNode part(String type) {
        return Json.object().put("type", type);
    }

    private static ObjectNode optional(ObjectNode part, String field, JsonNode value) {
        return value == null ? part : (ObjectNode) part.set(field, value);
    }

    private static JsonNode orNull(JsonNode node) {
        return node == null ? Json.MAPPER.nullNode() : node;
    }
}
