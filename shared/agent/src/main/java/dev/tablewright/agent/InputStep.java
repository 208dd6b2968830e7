package dev.tablewright.agent;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.toolcall.UserInputPort;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.UserInputRequirement;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The user-input step of a tool call: check what the call still needs, ask for it (one input request, one
 * {@link AgentEvent.InputRequested}), and on the next turn resume the call with the answer.
 */
final class InputStep {

    private static final StructuredLog LOG = StructuredLog.of(InputStep.class);

    private final UserInputPort port;

    InputStep(UserInputPort port) {
        this.port = port == null ? UserInputPort.NONE : port;
    }

    /** The arguments with every known value merged in, and what is still missing. */
    UserInputPort.Readiness check(TurnState s, ToolDefinition tool, ObjectNode arguments, Map<String, String> submitted) {
        return port.check(s.input.ownerId(), s.input.conversationId(), tool, arguments, submitted);
    }

    /** Creates the call's input request and pauses the call on it. */
    void ask(TurnState s, String toolCallId, String toolName, UserInputRequirement requirement) {
        String requestId;
        try {
            requestId = port.request(s.input.ownerId(), s.input.conversationId(), toolCallId, toolName, requirement);
        } catch (RuntimeException e) {
            LOG.error("input request could not be created", e, "tool", toolName);
            String error = "The input form for " + toolName + " could not be created; try again shortly.";
            s.emit(new AgentEvent.ToolFailed(toolCallId, error));
            s.toolResult(toolCallId, ToolDispatch.errorJson(ErrorCode.UNAVAILABLE, error));
            return;
        }
        waitFor(s, requestId, toolCallId, toolName, requirement);
    }

    private void waitFor(TurnState s, String requestId, String toolCallId, String toolName, UserInputRequirement requirement) {
        s.emit(new AgentEvent.InputRequested(requestId, toolCallId, toolName, requirement));
        s.deferred.add(new DeferredCall(toolCallId, toolName, DeferredCall.Waiting.USER_INPUT));
    }

    /**
     * The calls a paused turn left without a result, before the model is asked again: a call whose input came is
     * run with it, one still waiting waits on, one that cannot be answered any more answers so.
     * True when that ended the turn (the repair bound was reached on a resumed call).
     */
    boolean resume(TurnState s, List<AgentInput.PendingCall> pending, ToolDispatch tools) throws TurnState.Interrupted {
        for (AgentInput.PendingCall call : pending) {
            s.checkClient();
            Optional<ToolDefinition> tool = tools.registry().find(call.toolName());
            // a client tool's result comes with the request or never: without it, the call has no result
            boolean clientCall = call.waitingFor().map(w -> w == DeferredCall.Waiting.CLIENT).orElse(false)
                    || s.clientTools.containsKey(call.toolName());
            if (clientCall || tool.isEmpty()) {
                fail(s, call.toolCallId(), ErrorCode.NO_RESULT, "No result came back for this call.");
                continue;
            }
            Optional<UserInputPort.Answer> answer = port.answer(s.input.ownerId(), s.input.conversationId(), call.toolCallId());
            if (answer.isPresent() && answer.get().pending()) {
                UserInputRequirement requirement = tool.get().requiresUserInput() != null ? tool.get().requiresUserInput()
                        : new UserInputRequirement("Waiting for your input.", List.of(), false, null);
                waitFor(s, answer.get().requestId(), call.toolCallId(), call.toolName(), requirement);
                continue;
            }
            if (answer.isEmpty() || !answer.get().completed()) {
                fail(s, call.toolCallId(), ErrorCode.INPUT_NOT_GIVEN, "The user did not provide the input this tool needs"
                        + (answer.isPresent() ? " (the request is " + answer.get().status() + ")." : "."));
                continue;
            }
            ObjectNode arguments = call.arguments() != null && call.arguments().isObject()
                    ? ((ObjectNode) call.arguments()).deepCopy() : Json.object();
            if (tools.run(s, call.toolCallId(), call.toolName(), arguments, answer.get().values())) {
                return true;
            }
        }
        return false;
    }

    private static void fail(TurnState s, String toolCallId, ErrorCode code, String error) {
        s.emit(new AgentEvent.ToolFailed(toolCallId, error));
        s.toolResult(toolCallId, ToolDispatch.errorJson(code, error));
    }
}
