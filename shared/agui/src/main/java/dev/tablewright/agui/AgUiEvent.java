package dev.tablewright.agui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;

import java.time.Instant;
import java.util.List;

/**
 * The AG-UI 1.0 events this door sends, each as the JSON of {@code @ag-ui/core}'s schema of its {@code type}
 * ({@link #json()}): optional fields left out when null, never sent as null (the schemas refuse a null where a
 * value is optional).
 */
public sealed interface AgUiEvent {

    String type();

    /** The event as one JSON object, {@code type} first. */
    ObjectNode json();

    private static ObjectNode typed(String type) {
        return Json.object().put("type", type);
    }

    private static ObjectNode with(ObjectNode node, String field, String value) {
        Json.putIfPresent(node, field, value);
        return node;
    }

    record RunStarted(String threadId, String runId, String parentRunId) implements AgUiEvent {
        public String type() {
            return "RUN_STARTED";
        }

        public ObjectNode json() {
            return with(typed(type()).put("threadId", threadId).put("runId", runId), "parentRunId", parentRunId);
        }
    }

    /** The run's end; {@code outcome} says whether it is done, waits on interrupts or was cancelled. */
    record RunFinished(String threadId, String runId, Outcome outcome) implements AgUiEvent {
        public String type() {
            return "RUN_FINISHED";
        }

        public ObjectNode json() {
            ObjectNode node = typed(type()).put("threadId", threadId).put("runId", runId);
            node.set("outcome", outcome.json());
            return node;
        }
    }

    /** A run that failed: {@code message} is what the user can act on, {@code code} the API's error code. */
    record RunError(String message, String code) implements AgUiEvent {
        public String type() {
            return "RUN_ERROR";
        }

        public ObjectNode json() {
            return with(typed(type()).put("message", message), "code", code);
        }
    }

    record StepStarted(String stepName) implements AgUiEvent {
        public String type() {
            return "STEP_STARTED";
        }

        public ObjectNode json() {
            return typed(type()).put("stepName", stepName);
        }
    }

    record StepFinished(String stepName) implements AgUiEvent {
        public String type() {
            return "STEP_FINISHED";
        }

        public ObjectNode json() {
            return typed(type()).put("stepName", stepName);
        }
    }

    record TextMessageStart(String messageId) implements AgUiEvent {
        public String type() {
            return "TEXT_MESSAGE_START";
        }

        public ObjectNode json() {
            return typed(type()).put("messageId", messageId).put("role", "assistant");
        }
    }

    record TextMessageContent(String messageId, String delta) implements AgUiEvent {
        public String type() {
            return "TEXT_MESSAGE_CONTENT";
        }

        public ObjectNode json() {
            return typed(type()).put("messageId", messageId).put("delta", delta);
        }
    }

    record TextMessageEnd(String messageId) implements AgUiEvent {
        public String type() {
            return "TEXT_MESSAGE_END";
        }

        public ObjectNode json() {
            return typed(type()).put("messageId", messageId);
        }
    }

    record ToolCallStart(String toolCallId, String toolCallName, String parentMessageId) implements AgUiEvent {
        public String type() {
            return "TOOL_CALL_START";
        }

        public ObjectNode json() {
            return with(typed(type()).put("toolCallId", toolCallId).put("toolCallName", toolCallName),
                    "parentMessageId", parentMessageId);
        }
    }

    record ToolCallArgs(String toolCallId, String delta) implements AgUiEvent {
        public String type() {
            return "TOOL_CALL_ARGS";
        }

        public ObjectNode json() {
            return typed(type()).put("toolCallId", toolCallId).put("delta", delta);
        }
    }

    record ToolCallEnd(String toolCallId) implements AgUiEvent {
        public String type() {
            return "TOOL_CALL_END";
        }

        public ObjectNode json() {
            return typed(type()).put("toolCallId", toolCallId);
        }
    }

    /** A tool's answer, as the tool message {@code messageId}; {@code content} is its JSON as text. */
    record ToolCallResult(String messageId, String toolCallId, String content) implements AgUiEvent {
        public String type() {
            return "TOOL_CALL_RESULT";
        }

        public ObjectNode json() {
            return typed(type()).put("messageId", messageId).put("toolCallId", toolCallId).put("content", content)
                    .put("role", "tool");
        }
    }

    record StateSnapshot(JsonNode snapshot) implements AgUiEvent {
        public String type() {
            return "STATE_SNAPSHOT";
        }

        public ObjectNode json() {
            ObjectNode node = typed(type());
            node.set("snapshot", snapshot);
            return node;
        }
    }

    /** RFC 6902 operations against the state as last sent. */
    record StateDelta(ArrayNode delta) implements AgUiEvent {
        public String type() {
            return "STATE_DELTA";
        }

        public ObjectNode json() {
            ObjectNode node = typed(type());
            node.set("delta", delta);
            return node;
        }
    }

    /** The thread's messages as AG-UI messages (already in their wire form). */
    record MessagesSnapshot(List<ObjectNode> messages) implements AgUiEvent {
        public MessagesSnapshot {
            messages = List.copyOf(messages);
        }

        public String type() {
            return "MESSAGES_SNAPSHOT";
        }

        public ObjectNode json() {
            ObjectNode node = typed(type());
            ArrayNode array = node.putArray("messages");
            messages.forEach(array::add);
            return node;
        }
    }

    /** What the protocol has no event of its own for (validation errors, an editable field's change). */
    record Custom(String name, JsonNode value) implements AgUiEvent {
        public String type() {
            return "CUSTOM";
        }

        public ObjectNode json() {
            ObjectNode node = typed(type()).put("name", name);
            node.set("value", value);
            return node;
        }
    }

    /** How a run ended ({@code RUN_FINISHED.outcome}). */
    sealed interface Outcome {
        ObjectNode json();
    }

    /** Done; {@code pendingToolCallIds} names the frontend tool calls the client is to answer (none: empty). */
    record Success(List<String> pendingToolCallIds) implements Outcome {
        public Success {
            pendingToolCallIds = List.copyOf(pendingToolCallIds);
        }

        public ObjectNode json() {
            ObjectNode node = Json.object().put("type", "success");
            if (!pendingToolCallIds.isEmpty()) {
                ArrayNode ids = node.putArray("pendingToolCallIds");
                pendingToolCallIds.forEach(ids::add);
            }
            return node;
        }
    }

    /** The run waits on the user: the next run's {@code resume} answers each interrupt by id. */
    record Interrupted(List<Interrupt> interrupts) implements Outcome {
        public Interrupted {
            interrupts = List.copyOf(interrupts);
            if (interrupts.isEmpty()) {
                throw new IllegalArgumentException("an interrupt outcome has at least one interrupt");
            }
        }

        public ObjectNode json() {
            ObjectNode node = Json.object().put("type", "interrupt");
            ArrayNode array = node.putArray("interrupts");
            interrupts.forEach(i -> array.add(i.json()));
            return node;
        }
    }

    /** The run was stopped before its end (the user's stop). */
    record Cancelled() implements Outcome {
        public ObjectNode json() {
            return Json.object().put("type", "cancelled");
        }
    }

    /**
     * One thing the run waits on the user for.
     *
     * @param reason         {@code tool_call} (keep or discard a call's effect) or {@code input_required} (a form)
     * @param responseSchema the JSON Schema of the resume's {@code payload}
     */
    record Interrupt(String id, String reason, String message, String toolCallId, ObjectNode responseSchema,
                     Instant expiresAt, ObjectNode metadata) {

        public static final String TOOL_CALL = "tool_call";
        public static final String INPUT_REQUIRED = "input_required";

        public ObjectNode json() {
            ObjectNode node = Json.object().put("id", id).put("reason", reason);
            Json.putIfPresent(node, "message", message);
            Json.putIfPresent(node, "toolCallId", toolCallId);
            if (responseSchema != null) {
                node.set("responseSchema", responseSchema);
            }
            if (expiresAt != null) {
                node.put("expiresAt", expiresAt.toString());
            }
            if (metadata != null) {
                node.set("metadata", metadata);
            }
            return node;
        }
    }
}
