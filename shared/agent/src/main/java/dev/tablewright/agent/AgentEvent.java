package dev.tablewright.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.validation.ValidationError;
import dev.tablewright.agent.model.TokenUsage;
import dev.tablewright.editable.EditableFieldUpdate;
import dev.tablewright.toolcontract.UserInputRequirement;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What an agent turn does, as it does it, in the agent's own terms. The loop emits these to an {@link AgentOutput};
 * each door (the AI SDK's UI message stream, MCP) maps them to its protocol, and no protocol name appears here.
 */
public sealed interface AgentEvent {

    /** The turn began (always the first event). */
    record TurnStarted() implements AgentEvent {
    }

    /** One model step began: a model call and the tool calls it makes. */
    record StepStarted() implements AgentEvent {
    }

    record StepFinished() implements AgentEvent {
    }

    record TextStarted(String id) implements AgentEvent {
    }

    record TextDelta(String id, String delta) implements AgentEvent {
    }

    record TextEnded(String id) implements AgentEvent {
    }

    /** The model began a tool call; its arguments stream next. */
    record ToolCallStarted(String toolCallId, String toolName) implements AgentEvent {
    }

    record ToolCallArgumentDelta(String toolCallId, String delta) implements AgentEvent {
    }

    /** The call's arguments are complete and parsed: the call runs now (or is deferred). */
    record ToolCallReady(String toolCallId, String toolName, JsonNode arguments) implements AgentEvent {
    }

    /** The model's arguments for a call could not be used (unparsable, cut off); {@code raw} is what it wrote. */
    record ToolCallRejected(String toolCallId, String toolName, JsonNode raw, String problem) implements AgentEvent {
    }

    /** A tool answered; {@code output} is its answer as the client sees it. */
    record ToolResult(String toolCallId, String toolName, JsonNode output) implements AgentEvent {
    }

    /** A tool call ended without an answer; {@code message} is plain text. */
    record ToolFailed(String toolCallId, String message) implements AgentEvent {
    }

    /**
     * The config the agent works on, as it now is: once after {@link TurnStarted} when the turn starts from one, then
     * whenever a tool changes it (a proposed or previewed config, an editable field). A door that shares state streams it.
     */
    record WorkingConfigChanged(ObjectNode config) implements AgentEvent {
    }

    /** A preview was stored for the user to keep or discard. */
    record PreviewReady(String toolCallId, Preview preview) implements AgentEvent {

        /** The id the user's decision names; may be null when the tool's answer carries none. */
        public String previewId() {
            return preview.previewId();
        }
    }

    /** A tool call waits for values only the user knows: request {@code requestId} asks for them. */
    record InputRequested(String requestId, String toolCallId, String toolName, UserInputRequirement requirement)
            implements AgentEvent {
    }

    /** The model could not make a change valid within the repair bound; the turn explains the errors and stops. */
    record RepairBoundReached(String toolCallId, String toolName, List<ValidationError> errors) implements AgentEvent {
        public RepairBoundReached {
            errors = List.copyOf(errors);
        }
    }

    /** One of the page's editable fields changed. */
    record EditableFieldChanged(String field, EditableFieldUpdate update) implements AgentEvent {
    }

    /** The turn failed (the model, or this side); {@code message} is plain text a user may read. */
    record Failed(String message) implements AgentEvent {
    }

    /** The turn ended (always the last event). */
    record Stopped(StopReason reason, TokenUsage usage) implements AgentEvent {
    }

    /** A process-unique id for text blocks and messages, e.g. {@code newId("txt")} → {@code txt_1a}. */
    static String newId(String prefix) {
        return prefix + "_" + Long.toString(System.nanoTime(), 36) + Long.toString(Ids.SEQUENCE.incrementAndGet(), 36);
    }

    /** Holder of the id sequence (an interface cannot have a private static field). */
    final class Ids {
        private static final AtomicLong SEQUENCE = new AtomicLong();

        private Ids() {
        }
    }
}
