package dev.tablewright.door;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.AgentEvent;
import dev.tablewright.toolcontract.UserInputRequirement;

/**
 * What a deferred call waits for, typed, for every door: the client runs it, the user answers a form, or the user
 * approves it. A door maps each to its wire (the AI SDK: a client tool part, a user-input request part, a tool approval
 * request; AG-UI: a frontend tool call or an interrupt; MCP: an elicitation or input request, a confirmation), and
 * answers come back by the call's, the request's or the approval's id. Each carries its typed payload: the call's
 * arguments, the form, the call to approve and the preview it keeps.
 */
public sealed interface Deferral {

    String toolCallId();

    String toolName();

    /** The client runs the tool and sends its result with the next request. */
    record ClientRuns(String toolCallId, String toolName, JsonNode arguments) implements Deferral {
    }

    /**
     * The user answers the call's input request first: {@code form} the fields asked for, {@code requestId} the id the
     * answer comes back by; {@link FormAnswers} settles it and the call resumes with the values.
     */
    record UserAnswers(String toolCallId, String toolName, String requestId, UserInputRequirement form) implements Deferral {

        /** The form a tool asked for in a turn. */
        public static UserAnswers of(AgentEvent.InputRequested asked) {
            return new UserAnswers(asked.toolCallId(), asked.toolName(), asked.requestId(), asked.requirement());
        }
    }

    /**
     * The user approves the call before it runs: {@code input} is the call as it will run, {@code previewId} the
     * preview it keeps ({@link DecisionLedger#KEEP_PREVIEW}), {@code approvalId} the id its answer comes back by.
     */
    record UserApproves(String toolCallId, String toolName, ObjectNode input, String approvalId, String previewId)
            implements Deferral {
    }
}
