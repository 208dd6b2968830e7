package dev.tablewright.agui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.AgentEvent;
import dev.tablewright.agent.AgentOutput;
import dev.tablewright.agent.Preview;
import dev.tablewright.agent.StopReason;
import dev.tablewright.agent.StopSignal;
import dev.tablewright.agent.toolcall.EditableFieldUpdateJson;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.json.Json;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The agent's events as one AG-UI run: {@code RUN_STARTED} then {@code STATE_SNAPSHOT}, the model's text as
 * {@code TEXT_MESSAGE_*}, each step as {@code STEP_*}, each tool call as {@code TOOL_CALL_START/ARGS/END} and its
 * answer as {@code TOOL_CALL_RESULT}, a {@code STATE_DELTA} whenever the working config or the preview changes,
 * and a failed turn as {@code RUN_ERROR}. The run's last event is the door's: {@link #finish} (the snapshots and
 * {@code RUN_FINISHED} with its outcome) or {@link #error}. The one place AG-UI's names for what the agent does live.
 */
public final class AgUiEventMapper implements AgentOutput {

    /** The {@code CUSTOM} events of what AG-UI has no event for. */
    public static final String VALIDATION_ERRORS = "tablewright.validation-errors";
    public static final String EDITABLE_FIELD = "tablewright.editable-field-update";

    private final AgUiEventStream stream;
    private final String threadId;
    private final String runId;
    private final SharedState state;
    private final boolean outlivesClient;
    private final StopSignal stop;
    private final Set<String> openCalls = new LinkedHashSet<>();
    private final List<AgentEvent.InputRequested> inputRequests = new ArrayList<>();
    private String textMessageId;
    private String lastMessageId;
    private int steps;
    private Preview preview;
    private String failure;
    private StopReason stopped;
    private boolean ended;

    /**
     * @param outlivesClient the turn is kept (stored): a client that leaves changes nothing and the run goes on
     * @param stop           raised when the run is to stop: it ends with outcome {@code cancelled}
     */
    public AgUiEventMapper(AgUiEventStream stream, String threadId, String runId, SharedState state,
                           boolean outlivesClient, StopSignal stop) {
        this.stream = stream;
        this.threadId = threadId;
        this.runId = runId;
        this.state = state;
        this.outlivesClient = outlivesClient;
        this.stop = stop;
    }

    /** {@code RUN_STARTED} and the state as the run starts: the door's first events, before the turn's. */
    public void start(String parentRunId) {
        stream.write(new AgUiEvent.RunStarted(threadId, runId, parentRunId));
        stream.write(state.snapshot());
    }

    @Override
    public void emit(AgentEvent event) {
        if (ended) {
            return;
        }
        switch (event) {
            case AgentEvent.TurnStarted e -> {
                // RUN_STARTED is the door's (start), before anything the turn says
            }
            case AgentEvent.StepStarted e -> stream.write(new AgUiEvent.StepStarted(stepName(++steps)));
            case AgentEvent.StepFinished e -> {
                closeText();
                stream.write(new AgUiEvent.StepFinished(stepName(steps)));
            }
            case AgentEvent.TextStarted e -> {
                closeText();
                textMessageId = e.id();
                lastMessageId = e.id();
                stream.write(new AgUiEvent.TextMessageStart(e.id()));
            }
            case AgentEvent.TextDelta e -> {
                if (!e.id().equals(textMessageId)) {
                    closeText();
                    textMessageId = e.id();
                    lastMessageId = e.id();
                    stream.write(new AgUiEvent.TextMessageStart(e.id()));
                }
                stream.write(new AgUiEvent.TextMessageContent(e.id(), e.delta()));
            }
            case AgentEvent.TextEnded e -> {
                if (e.id().equals(textMessageId)) {
                    closeText();
                }
            }
            case AgentEvent.ToolCallStarted e -> startCall(e.toolCallId(), e.toolName());
            case AgentEvent.ToolCallArgumentDelta e -> {
                if (openCalls.contains(e.toolCallId()) && !e.delta().isEmpty()) {
                    stream.write(new AgUiEvent.ToolCallArgs(e.toolCallId(), e.delta()));
                }
            }
            case AgentEvent.ToolCallReady e -> endCall(e.toolCallId(), e.toolName(), e.arguments());
            case AgentEvent.ToolCallRejected e -> {
                endCall(e.toolCallId(), e.toolName(), e.raw());
                result(e.toolCallId(), Json.object().put("error", e.problem()));
            }
            case AgentEvent.ToolResult e -> result(e.toolCallId(), e.output());
            case AgentEvent.ToolFailed e -> result(e.toolCallId(), Json.object().put("error", e.message()));
            case AgentEvent.WorkingConfigChanged e -> {
                state.workingConfig(e.config());
                state.delta().ifPresent(stream::write);
            }
            case AgentEvent.PreviewReady e -> {
                preview = e.preview();
                state.preview(e.preview());
                state.delta().ifPresent(stream::write);
            }
            case AgentEvent.InputRequested e -> inputRequests.add(e);
            case AgentEvent.RepairBoundReached e -> {
                ObjectNode value = Json.object().put("toolCallId", e.toolCallId()).put("toolName", e.toolName());
                ArrayNode errors = value.putArray("errors");
                e.errors().forEach(v -> errors.addObject().put("field", v.field()).put("message", v.message()));
                stream.write(new AgUiEvent.Custom(VALIDATION_ERRORS, value));
            }
            case AgentEvent.EditableFieldChanged e -> stream.write(new AgUiEvent.Custom(EDITABLE_FIELD,
                    EditableFieldUpdateJson.write(e.update()).put("field", e.field())));
            case AgentEvent.Failed e -> failure = e.message();
            case AgentEvent.Stopped e -> {
                closeText();
                stopped = e.reason();
                if (e.reason() == StopReason.MODEL_ERROR || e.reason() == StopReason.INTERNAL_ERROR) {
                    error(failure != null ? failure : "Something went wrong on our side while answering. Please try again.",
                            e.reason() == StopReason.MODEL_ERROR ? ErrorCode.UNAVAILABLE : ErrorCode.INTERNAL);
                }
            }
        }
    }

    /** A call the door issues itself (not the model's), e.g. the keep decision's {@code accept_preview}. */
    public void issuedCall(String toolCallId, String toolName, JsonNode arguments) {
        endCall(toolCallId, toolName, arguments);
    }

    /** A call's answer, e.g. the outcome of a resumed decision on the call that asked for it. */
    public void result(String toolCallId, JsonNode output) {
        if (ended) {
            return;
        }
        lastMessageId = AgentEvent.newId("msg");
        stream.write(new AgUiEvent.ToolCallResult(lastMessageId, toolCallId, Json.write(output)));
    }

    /** The preview was kept or discarded: the state says so at once. */
    public void previewSettled() {
        preview = null;
        state.previewSettled();
        state.delta().ifPresent(stream::write);
    }

    /**
     * The run's end: the state and the thread's messages as they now are, then {@code RUN_FINISHED} with the
     * interrupts the run waits on (none: success, naming {@code pendingToolCallIds} the client is to answer; a
     * stopped turn: cancelled). Nothing after a {@link #error}.
     */
    public void finish(List<AgUiEvent.Interrupt> interrupts, List<String> pendingToolCallIds, List<ObjectNode> messages) {
        if (ended) {
            return;
        }
        closeText();
        stream.write(state.snapshot());
        if (messages != null) {
            stream.write(new AgUiEvent.MessagesSnapshot(messages));
        }
        AgUiEvent.Outcome outcome = !interrupts.isEmpty() ? new AgUiEvent.Interrupted(interrupts)
                : stopped == StopReason.USER_STOPPED ? new AgUiEvent.Cancelled()
                : new AgUiEvent.Success(pendingToolCallIds);
        stream.write(new AgUiEvent.RunFinished(threadId, runId, outcome));
        ended = true;
    }

    /** The run fails: {@code RUN_ERROR} ends it (the protocol's last event), with a message the user can act on. */
    public void error(String message, ErrorCode code) {
        if (ended) {
            return;
        }
        closeText();
        stream.write(new AgUiEvent.RunError(message, code.wireName()));
        ended = true;
    }

    public boolean ended() {
        return ended;
    }

    /** How the turn stopped; null before it has. */
    public StopReason stopped() {
        return stopped;
    }

    /** The preview the run left pending, if any. */
    public Optional<Preview> preview() {
        return Optional.ofNullable(preview);
    }

    /** The input requests the run made (each becomes an {@code input_required} interrupt). */
    public List<AgentEvent.InputRequested> inputRequests() {
        return List.copyOf(inputRequests);
    }

    public SharedState state() {
        return state;
    }

    private void startCall(String toolCallId, String toolName) {
        if (openCalls.add(toolCallId)) {
            closeText();
            stream.write(new AgUiEvent.ToolCallStart(toolCallId, toolName, lastMessageId));
        }
    }

    /** Ends a call, first starting it with its whole arguments when the model's stream never did. */
    private void endCall(String toolCallId, String toolName, JsonNode arguments) {
        if (!openCalls.contains(toolCallId)) {
            startCall(toolCallId, toolName);
            if (arguments != null && !arguments.isMissingNode()) {
                stream.write(new AgUiEvent.ToolCallArgs(toolCallId, arguments.isTextual() ? arguments.asText() : Json.write(arguments)));
            }
        }
        openCalls.remove(toolCallId);
        stream.write(new AgUiEvent.ToolCallEnd(toolCallId));
    }

    private void closeText() {
        if (textMessageId != null) {
            stream.write(new AgUiEvent.TextMessageEnd(textMessageId));
            textMessageId = null;
        }
    }

    private static String stepName(int step) {
        return "step-" + step;
    }

    @Override
    public boolean clientGone() {
        return !outlivesClient && stream.isClientGone();
    }

    @Override
    public void onClientGone(Runnable callback) {
        if (!outlivesClient) {
            stream.response().onClientGone(callback);
        }
    }

    @Override
    public boolean stopRequested() {
        return stop.isRaised();
    }

    @Override
    public void onStopRequested(Runnable callback) {
        stop.onRaise(callback);
    }
}
