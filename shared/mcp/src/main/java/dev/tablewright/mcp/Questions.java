package dev.tablewright.mcp;

import dev.tablewright.toolcontract.UserInputRequirement;

import java.util.Map;

/**
 * How a tool call asks the user: on the call's own SSE stream, waiting for the answer (2025 sessions,
 * {@link StreamedQuestions}), or by answering {@code input_required} at once and reading the answer from the retry
 * (2026-07-28, {@link RetriedQuestions}).
 */
interface Questions {

    /** The user's answer: the values, or how the call ends instead (declined, cannot be asked, input required). */
    record Asked(Map<String, String> values, ToolCall.Outcome end) {

        /** The call ends unanswered: the question is {@code status} (declined, cancelled, expired). */
        static Asked declined(String status, String onDecline) {
            return ToolCall.ends(ToolResults.failure("The user declined to answer (the question is " + status + "). " + onDecline));
        }

        /** The status of a question an elicitation result's {@code action} did not accept. */
        static String declinedBy(String action) {
            return action.equals("decline") ? "declined" : "cancelled";
        }
    }

    /**
     * @param soFar     the values this call already has (earlier answers), carried to a retry
     * @param onDecline what the result says was (not) done when the user declines
     */
    Asked ask(String toolName, UserInputRequirement requirement, Map<String, String> soFar, String onDecline);
}
