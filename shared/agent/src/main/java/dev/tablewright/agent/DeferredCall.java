package dev.tablewright.agent;

/**
 * A tool call a turn cannot finish: the client runs it (a client tool), or the user has to answer first (an input
 * request). The turn ends with {@code finish} {@code tool-calls}; the next request brings the answer and the call
 * is resumed, not asked of the model again.
 */
record DeferredCall(String toolCallId, String toolName, Waiting waitingFor) {

    enum Waiting { CLIENT, USER_INPUT }
}
