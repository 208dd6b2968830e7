package dev.tablewright.aisdk.approval;

import dev.tablewright.agent.AgentEvent;
import dev.tablewright.agent.AgentOutput;
import dev.tablewright.agent.StopReason;
import dev.tablewright.aisdk.stream.UiChunk;
import dev.tablewright.aisdk.stream.UiMessageStreamWriter;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The turn's output with the approvals around it: the answers' outcomes right after {@code start}, and, when the turn
 * leaves a preview pending, the call that keeps it (waiting for the user's approval) as its last step, before
 * {@code finish} ({@code tool-calls}: the turn waits for the user). Deterministic: it does not depend on the model
 * asking.
 */
public final class ApprovalOutput implements AgentOutput {

    /** Endings after which the preview is offered: not a pause for other calls, a stop, a gone client or a crash. */
    private static final Set<StopReason> OFFERED = EnumSet.complementOf(EnumSet.of(StopReason.PAUSED,
            StopReason.USER_STOPPED, StopReason.CLIENT_GONE, StopReason.INTERNAL_ERROR));

    private final AgentOutput wire;
    private final UiMessageStreamWriter ui;
    private final List<UiChunk> outcomes;
    private final ToolApprovals issuing;
    private final String ownerId;
    private final String conversationId;
    private final String messageId;
    private String previewId;

    /**
     * @param wire     the turn's own output (the AI SDK mapper)
     * @param outcomes the answers' outcomes, written after {@code start}
     * @param issuing  issues the keep call at the end; null when the client did not ask for approvals
     */
    public ApprovalOutput(AgentOutput wire, UiMessageStreamWriter ui, List<UiChunk> outcomes, ToolApprovals issuing,
                          String ownerId, String conversationId, String messageId) {
        this.wire = wire;
        this.ui = ui;
        this.outcomes = List.copyOf(outcomes);
        this.issuing = issuing;
        this.ownerId = ownerId;
        this.conversationId = conversationId;
        this.messageId = messageId;
    }

    @Override
    public void emit(AgentEvent event) {
        switch (event) {
            case AgentEvent.TurnStarted e -> {
                wire.emit(e);
                outcomes.forEach(ui::write);
            }
            case AgentEvent.PreviewReady e -> {
                if (e.previewId() != null) {
                    previewId = e.previewId();
                }
                wire.emit(e);
            }
            case AgentEvent.Stopped e when issuing != null && previewId != null && OFFERED.contains(e.reason()) -> {
                var issued = issuing.issue(ownerId, conversationId, messageId, previewId);
                if (issued.isPresent()) {
                    issued.get().chunks().forEach(ui::write);
                    wire.emit(new AgentEvent.Stopped(StopReason.PAUSED, e.usage()));
                } else {
                    wire.emit(e);
                }
            }
            default -> wire.emit(event);
        }
    }

    @Override
    public boolean clientGone() {
        return wire.clientGone();
    }

    @Override
    public void onClientGone(Runnable callback) {
        wire.onClientGone(callback);
    }

    @Override
    public boolean stopRequested() {
        return wire.stopRequested();
    }

    @Override
    public void onStopRequested(Runnable callback) {
        wire.onStopRequested(callback);
    }
}
