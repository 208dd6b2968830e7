package dev.tablewright.chat;

import dev.tablewright.chat.stream.UiMessageStreamWriter;
import dev.tablewright.chat.stream.UiMessageStreamWriter.FinishReason;

/** A turn's events as the AI SDK's UI message stream: each event one part, written and flushed at once. */
public final class UiStreamOutput implements TurnOutput {

    private final UiMessageStreamWriter ui;

    public UiStreamOutput(UiMessageStreamWriter ui) {
        this.ui = ui;
    }

    @Override
    public void emit(TurnEvent event) {
        switch (event) {
            case TurnEvent.Started e -> ui.start(e.messageId(), e.metadata());
            case TurnEvent.StepStarted e -> ui.startStep();
            case TurnEvent.StepFinished e -> ui.finishStep();
            case TurnEvent.TextStarted e -> ui.textStart(e.id());
            case TurnEvent.TextDelta e -> ui.textDelta(e.id(), e.delta());
            case TurnEvent.TextEnded e -> ui.textEnd(e.id());
            case TurnEvent.ToolInputStarted e -> ui.toolInputStart(e.toolCallId(), e.toolName());
            case TurnEvent.ToolInputDelta e -> ui.toolInputDelta(e.toolCallId(), e.delta());
            case TurnEvent.ToolInputAvailable e -> ui.toolInputAvailable(e.toolCallId(), e.toolName(), e.input());
            case TurnEvent.ToolInputFailed e -> ui.toolInputError(e.toolCallId(), e.toolName(), e.input(), e.errorText());
            case TurnEvent.ToolOutput e -> ui.toolOutputAvailable(e.toolCallId(), e.output());
            case TurnEvent.ToolFailed e -> ui.toolOutputError(e.toolCallId(), e.errorText());
            case TurnEvent.Data e -> ui.data(e.name(), e.id(), e.data());
            case TurnEvent.Failed e -> ui.error(e.errorText());
            case TurnEvent.Finished e -> ui.finish(finishReason(e.ending()), e.metadata());
        }
    }

    private static FinishReason finishReason(TurnEvent.Ending ending) {
        return switch (ending) {
            case STOP -> FinishReason.STOP;
            case LENGTH -> FinishReason.LENGTH;
            case TOOL_CALLS -> FinishReason.TOOL_CALLS;
            case ERROR -> FinishReason.ERROR;
            case OTHER -> FinishReason.OTHER;
        };
    }

    @Override
    public boolean clientGone() {
        return ui.isClientGone();
    }

    @Override
    public boolean closed() {
        return ui.isDone();
    }

    @Override
    public void close() {
        ui.done();
    }

    @Override
    public void onClientGone(Runnable callback) {
        ui.response().onClientGone(callback);
    }
}
