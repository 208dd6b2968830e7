package dev.tablewright.agent;

/**
 * A tool call a turn cannot finish: the client runs it (a client tool), or the user has to answer first (an input
 * request). The turn ends {@link StopReason#PAUSED} and hands these to its door in {@link AgentResult#pending()}; the
 * next request brings the answer and the call is resumed, not asked of the model again.
 */
public record DeferredCall(String toolCallId, String toolName, Waiting waitingFor) {

    /** What the call waits for. */
    public enum Waiting {
        /** The caller runs the tool and sends its result with the next request. */
        CLIENT,
        /** The user answers an input request first. */
        USER_INPUT
    }
}
