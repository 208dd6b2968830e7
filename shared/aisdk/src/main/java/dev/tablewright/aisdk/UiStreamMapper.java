package dev.tablewright.aisdk;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.AgentEvent;
import dev.tablewright.agent.AgentOutput;
import dev.tablewright.agent.StopReason;
import dev.tablewright.agent.StopSignal;
import dev.tablewright.agent.model.TokenUsage;
import dev.tablewright.agent.toolcall.EditableFieldUpdateJson;
import dev.tablewright.aisdk.stream.UiChunk;
import dev.tablewright.aisdk.stream.UiChunk.FinishReason;
import dev.tablewright.aisdk.stream.UiMessageStreamWriter;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.InputFieldJson;

/**
 * The agent's events as the AI SDK's UI message stream: each event becomes its chunks, written and flushed at once.
 * The one place the protocol's names for what the agent does live: the custom parts ({@code data-table-config-preview},
 * {@code data-user-input-request}, {@code data-validation-errors}, {@code data-editable-field-update}), the message's
 * metadata (the conversation and the token usage) and the finish reasons.
 */
public final class UiStreamMapper implements AgentOutput {

    public static final String PREVIEW_PART = "table-config-preview";
    public static final String INPUT_REQUEST_PART = "user-input-request";
    public static final String VALIDATION_ERRORS_PART = "validation-errors";
    public static final String EDITABLE_FIELD_PART = "editable-field-update";

    private final UiMessageStreamWriter ui;
    private final String messageId;
    private final String conversationId;
    private final boolean outlivesClient;
    private final StopSignal stop;

    /**
     * A turn whose answer nobody keeps: when its client leaves, the model is cancelled.
     *
     * @param messageId      the assistant message the stream writes ({@code start.messageId})
     * @param conversationId named in the message's metadata; may be null
     */
    public UiStreamMapper(UiMessageStreamWriter ui, String messageId, String conversationId) {
        this(ui, messageId, conversationId, false, new StopSignal());
    }

    /**
     * @param outlivesClient the answer is kept (stored, resumable): a client that leaves changes nothing, the stream
     *                       goes on writing to a response that drops what nobody reads, and the turn runs to its end
     * @param stop           raised when the turn is asked to stop: it ends with {@code finish} and
     *                       {@code messageMetadata.stopped: true}
     */
    public UiStreamMapper(UiMessageStreamWriter ui, String messageId, String conversationId, boolean outlivesClient,
                          StopSignal stop) {
        this.ui = ui;
        this.messageId = messageId;
        this.conversationId = conversationId;
        this.outlivesClient = outlivesClient;
        this.stop = stop;
    }

    @Override
    public void emit(AgentEvent event) {
        switch (event) {
            case AgentEvent.TurnStarted e -> ui.write(new UiChunk.Start(messageId, metadata(TokenUsage.NONE)));
            case AgentEvent.StepStarted e -> ui.write(new UiChunk.StartStep());
            case AgentEvent.StepFinished e -> ui.write(new UiChunk.FinishStep());
            case AgentEvent.TextStarted e -> ui.write(new UiChunk.TextStart(e.id()));
            case AgentEvent.TextDelta e -> ui.write(new UiChunk.TextDelta(e.id(), e.delta()));
            case AgentEvent.TextEnded e -> ui.write(new UiChunk.TextEnd(e.id()));
            case AgentEvent.ToolCallStarted e -> ui.write(new UiChunk.ToolInputStart(e.toolCallId(), e.toolName()));
            case AgentEvent.ToolCallArgumentDelta e -> ui.write(new UiChunk.ToolInputDelta(e.toolCallId(), e.delta()));
            case AgentEvent.ToolCallReady e -> ui.write(new UiChunk.ToolInputAvailable(e.toolCallId(), e.toolName(), e.arguments()));
            case AgentEvent.ToolCallRejected e -> ui.write(new UiChunk.ToolInputError(e.toolCallId(), e.toolName(), e.raw(), e.problem()));
            case AgentEvent.ToolResult e -> ui.write(new UiChunk.ToolOutputAvailable(e.toolCallId(), e.output()));
            case AgentEvent.ToolFailed e -> ui.write(new UiChunk.ToolOutputError(e.toolCallId(), e.message()));
            case AgentEvent.WorkingConfigChanged e -> {
                // the stream shows configs through tool outputs and the preview card, not as state
            }
            case AgentEvent.PreviewReady e -> ui.write(new UiChunk.Data(PREVIEW_PART,
                    e.previewId() == null ? e.toolCallId() : e.previewId(), e.preview().card()));
            case AgentEvent.InputRequested e -> {
                ObjectNode data = Json.object().put("requestId", e.requestId()).put("toolCallId", e.toolCallId())
                        .put("toolName", e.toolName()).put("reason", e.requirement().reason());
                data.set("fields", InputFieldJson.write(e.requirement().fields()));
                data.put("saveForSession", e.requirement().saveForSession());
                ui.write(new UiChunk.Data(INPUT_REQUEST_PART, e.requestId(), data));
            }
            case AgentEvent.RepairBoundReached e -> {
                ObjectNode data = Json.object().put("toolCallId", e.toolCallId()).put("toolName", e.toolName());
                ArrayNode errors = data.putArray("errors");
                e.errors().forEach(v -> errors.addObject().put("field", v.field()).put("message", v.message()));
                ui.write(new UiChunk.Data(VALIDATION_ERRORS_PART, e.toolCallId(), data));
            }
            case AgentEvent.EditableFieldChanged e -> ui.write(new UiChunk.Data(EDITABLE_FIELD_PART, "edit_" + e.field(),
                    EditableFieldUpdateJson.write(e.update())));
            case AgentEvent.Failed e -> ui.write(new UiChunk.Error(e.message()));
            case AgentEvent.Stopped e -> {
                ObjectNode metadata = metadata(e.usage());
                if (e.reason() == StopReason.USER_STOPPED) {
                    metadata.put("stopped", true); // what the page shows, and what the stored message keeps
                }
                ui.write(new UiChunk.Finish(finishReason(e.reason()), metadata));
            }
        }
    }

    /** {@code message.metadata} in useChat: the conversation and the turn's token usage. */
    private ObjectNode metadata(TokenUsage usage) {
        ObjectNode metadata = Json.object();
        if (conversationId != null) {
            metadata.put("conversationId", conversationId);
        }
        metadata.putObject("usage").put("inputTokens", usage.promptTokens())
                .put("outputTokens", usage.completionTokens()).put("totalTokens", usage.total());
        return metadata;
    }

    static FinishReason finishReason(StopReason reason) {
        return switch (reason) {
            case COMPLETED, REPAIR_BOUND -> FinishReason.STOP;
            case MODEL_LENGTH, TOKEN_BUDGET, OUTPUT_CAP -> FinishReason.LENGTH;
            case PAUSED -> FinishReason.TOOL_CALLS;
            case MODEL_ERROR, INTERNAL_ERROR -> FinishReason.ERROR;
            case MAX_STEPS, OUT_OF_TIME, CLIENT_GONE, USER_STOPPED -> FinishReason.OTHER;
        };
    }

    @Override
    public boolean clientGone() {
        return !outlivesClient && ui.isClientGone();
    }

    @Override
    public void onClientGone(Runnable callback) {
        if (!outlivesClient) {
            ui.response().onClientGone(callback);
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
