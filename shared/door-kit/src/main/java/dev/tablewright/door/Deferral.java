package dev.tablewright.door;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What a deferred call waits for, typed, for every door: the client runs it, the user answers a form, or the user
 * approves it. A door maps each to its wire (the AI SDK: a client tool part, a user-input request part, a tool approval
 * request; MCP: a client tool, an elicitation or input request, a confirmation), and answers come back by the call's
 * (or the approval's) id.
 */
public sealed interface Deferral {

    String toolCallId();

    String toolName();

    /** The client runs the tool and sends its result with the next request. */
    record ClientRuns(String toolCallId, String toolName, JsonNode arguments) implements Deferral {
    }

    /** The user answers the call's input request (its form) first; the call is resumed with the values. */
    record UserAnswers(String toolCallId, String toolName, JsonNode arguments) implements Deferral {
    }

    /**
     * The user approves the call before it runs: {@code input} is the call as it will run, {@code previewId} the
     * preview it keeps ({@link DecisionLedger#KEEP_PREVIEW}), {@code approvalId} the id its answer comes back by.
     */
    record UserApproves(String toolCallId, String toolName, ObjectNode input, String approvalId, String previewId)
            implements Deferral {
    }
}
