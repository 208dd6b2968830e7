package dev.tablewright.agent;

import dev.tablewright.agent.memory.MemoryBudget;
import dev.tablewright.agent.model.ModelMessage;
import dev.tablewright.agent.toolcall.ClientTool;
import dev.tablewright.editable.EditableStatus;
import dev.tablewright.toolcontract.ToolDefinition;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The state of one running turn, shared by the loop and its steps (model, tools, input). */
final class TurnState {

    static final int MAX_TOOL_RESULT_CHARS = 16_000;

    final AgentInput input;
    final AgentOutput out;
    final Instant deadline;
    final MemoryBudget.Context earlier;
    final TurnRecord record = new TurnRecord();
    /** Hears the turn's model and tool calls (tracing); nothing unless the loop has an observer. */
    TurnObserver.Turn observed = TurnObserver.Turn.NONE;
    final WorkingConfig working;
    EditableStatus editable;
    /** This turn's model messages: the user's message, each step, every tool result. */
    final List<ModelMessage> messages = new ArrayList<>();
    final Map<String, ToolDefinition> discovered = new LinkedHashMap<>();
    final Map<String, ClientTool> clientTools = new LinkedHashMap<>();
    /** Calls this turn cannot finish: their answers come with the next request. */
    final List<DeferredCall> deferred = new ArrayList<>();
    int consecutiveInvalid;
    /** The errors the model could not repair, once the repair bound is reached. */
    List<dev.tablewright.validation.ValidationError> repairErrors;
    volatile Runnable cancelModel = () -> { };
    private StopReason stopped;

    TurnState(AgentInput input, AgentOutput out, Instant deadline, MemoryBudget.Context earlier) {
        this.input = input;
        this.out = out;
        this.deadline = deadline;
        this.earlier = earlier;
        this.working = new WorkingConfig(input.context(), input.draft());
        this.editable = working.editableFields();
        input.clientTools().forEach(t -> clientTools.put(t.name(), t));
        out.onClientGone(() -> cancelModel.run());
        out.onStopRequested(() -> cancelModel.run());
    }

    String page() {
        return input.context().page();
    }

    void emit(AgentEvent event) {
        out.emit(event);
    }

    /** The working config as it now is, to the output (a copy: the turn goes on changing its own). */
    void emitWorkingConfig() {
        if (working.current() != null) {
            emit(new AgentEvent.WorkingConfigChanged(working.current().deepCopy()));
        }
    }

    /** The answer the model reads for one call, clipped: a tool's output may be large. */
    void toolResult(String toolCallId, String content) {
        messages.add(new ModelMessage.ToolResult(toolCallId, clip(content, MAX_TOOL_RESULT_CHARS)));
    }

    /** Text of the agent's own (a limit reached, errors explained): shown, and remembered as the assistant's. */
    void say(String text) {
        String id = AgentEvent.newId("txt");
        emit(new AgentEvent.TextStarted(id));
        emit(new AgentEvent.TextDelta(id, text));
        emit(new AgentEvent.TextEnded(id));
        messages.add(new ModelMessage.Assistant(text, List.of()));
    }

    /** Ends the turn: the one {@link AgentEvent.Stopped}. */
    StopReason stop(StopReason reason) {
        if (stopped == null) {
            stopped = reason;
            record.outcome = reason;
            emit(new AgentEvent.Stopped(reason, record.usage));
        }
        return stopped;
    }

    boolean isStopped() {
        return stopped != null;
    }

    /** Ends the turn here when it was asked to stop, or when nobody listens any more and nothing keeps its answer. */
    void checkClient() throws Interrupted {
        if (out.stopRequested()) {
            throw new Interrupted(StopReason.USER_STOPPED);
        }
        if (out.clientGone()) {
            throw new Interrupted(StopReason.CLIENT_GONE);
        }
    }

    static String clip(String s, int max) {
        if (s == null) {
            return "";
        }
        return s.length() <= max ? s : s.substring(0, max) + "… (truncated)";
    }

    /**
     * Thrown out of a step when the turn must end now: it was asked to stop ({@link StopReason#USER_STOPPED}), or nobody
     * listens any more ({@link StopReason#CLIENT_GONE}): stop paying for tokens.
     */
    static final class Interrupted extends IOException {
        final StopReason reason;

        Interrupted(StopReason reason) {
            super(reason.code(), null);
            this.reason = reason;
        }
    }

    /** Thrown out of the model's stream when the turn's output cap is reached: the rest is not read. */
    static final class OutputCapReached extends IOException {
        OutputCapReached() {
            super("the turn's output cap was reached", null);
        }
    }
}
