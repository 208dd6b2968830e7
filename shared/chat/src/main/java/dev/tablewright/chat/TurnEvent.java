package dev.tablewright.chat;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What a turn does, as it does it: the loop ({@link ChatTurn}) emits these and knows nothing of how they reach a
 * client; {@link UiStreamOutput} writes them as the AI SDK's UI message stream.
 */
public sealed interface TurnEvent {

    /** How a turn ended. */
    enum Ending { STOP, LENGTH, TOOL_CALLS, ERROR, OTHER }

    record Started(String messageId, JsonNode metadata) implements TurnEvent {
    }

    record StepStarted() implements TurnEvent {
    }

    record StepFinished() implements TurnEvent {
    }

    record TextStarted(String id) implements TurnEvent {
    }

    record TextDelta(String id, String delta) implements TurnEvent {
    }

    record TextEnded(String id) implements TurnEvent {
    }

    record ToolInputStarted(String toolCallId, String toolName) implements TurnEvent {
    }

    record ToolInputDelta(String toolCallId, String delta) implements TurnEvent {
    }

    record ToolInputAvailable(String toolCallId, String toolName, JsonNode input) implements TurnEvent {
    }

    /** The model's input for a call could not be used (unparsable, cut off). */
    record ToolInputFailed(String toolCallId, String toolName, JsonNode input, String errorText) implements TurnEvent {
    }

    record ToolOutput(String toolCallId, JsonNode output) implements TurnEvent {
    }

    record ToolFailed(String toolCallId, String errorText) implements TurnEvent {
    }

    /** A custom part: {@code table-config-preview}, {@code user-input-request}, {@code validation-errors}, ... */
    record Data(String name, String id, JsonNode data) implements TurnEvent {
    }

    /** Shown to the user as the message's error: plain text, no secret, no stack trace. */
    record Failed(String errorText) implements TurnEvent {
    }

    record Finished(Ending ending, JsonNode metadata) implements TurnEvent {
    }

    /** A process-unique id for messages and text blocks, e.g. {@code newId("txt")} → {@code txt_1a}. */
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
