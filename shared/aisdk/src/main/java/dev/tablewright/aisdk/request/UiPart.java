package dev.tablewright.aisdk.request;

import com.fasterxml.jackson.databind.JsonNode;

/** The parts of a UI message the turn reads; every other part type is kept only as {@link Other}. */
public sealed interface UiPart {

    record Text(String text) implements UiPart {
    }

    /** A step boundary ({@code step-start}): the converter starts a new assistant message there. */
    record StepStart() implements UiPart {
    }

    /**
     * A tool part ({@code tool-<name>} or {@code dynamic-tool}).
     *
     * @param state input-streaming, input-available, output-available, output-error or output-denied
     */
    record ToolCall(String toolName, String toolCallId, String state, JsonNode input, JsonNode output,
                    String errorText) implements UiPart {
        public boolean hasResult() {
            return state.startsWith("output-");
        }
    }

    /** reasoning, source-*, file, data-* and anything newer: carried by the client, not used by the model. */
    record Other(String type) implements UiPart {
    }
}
