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
     * @param state    input-streaming, input-available, approval-requested, approval-responded, output-available,
     *                 output-error or output-denied
     * @param approval the part's {@code approval} (AI SDK 6+), or null
     */
    record ToolCall(String toolName, String toolCallId, String state, JsonNode input, JsonNode output,
                    String errorText, Approval approval) implements UiPart {
        public ToolCall(String toolName, String toolCallId, String state, JsonNode input, JsonNode output, String errorText) {
            this(toolName, toolCallId, state, input, output, errorText, null);
        }

        public boolean hasResult() {
            return state.startsWith("output-");
        }

        /** Answered by the user with a denial, not carried out: the model reads an execution-denied result. */
        public boolean denied() {
            return state.equals("output-denied")
                    || state.equals("approval-responded") && approval != null && Boolean.FALSE.equals(approval.approved());
        }
    }

    /**
     * A tool part's {@code approval}: its {@code id}, the user's answer ({@code approved}, null while unanswered)
     * with its {@code reason}, and the server's {@code signature} as the client kept it.
     */
    record Approval(String id, Boolean approved, String reason, String signature) {
    }

    /** reasoning, source-*, file, data-* and anything newer: carried by the client, not used by the model. */
    record Other(String type) implements UiPart {
    }
}
