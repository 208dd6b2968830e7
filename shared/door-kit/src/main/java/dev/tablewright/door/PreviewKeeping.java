package dev.tablewright.door;

import dev.tablewright.agent.AgentEvent;
import dev.tablewright.agent.AgentOutput;
import dev.tablewright.agent.StopReason;

import java.util.EnumSet;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A turn's output with the decisions around it, for every door: the settled answers' outcomes right after the turn
 * starts, and, when the turn leaves a preview pending, the call that keeps it ({@link DecisionLedger#issue}) as its
 * last step, the turn then ending {@link StopReason#PAUSED} (it waits for the user). Deterministic: the catalogue's
 * policy decides, not the model.
 */
public final class PreviewKeeping implements AgentOutput {

    /** Endings after which the preview is offered: not a pause for other calls, a stop, a gone client or a crash. */
    private static final Set<StopReason> OFFERED = EnumSet.complementOf(EnumSet.of(StopReason.PAUSED,
            StopReason.USER_STOPPED, StopReason.CLIENT_GONE, StopReason.INTERNAL_ERROR));

    private final AgentOutput wire;
    private final Runnable afterStart;
    private final Predicate<String> keep;
    private String previewId;

    /**
     * @param wire       the turn's own output (the door's event mapper)
     * @param afterStart writes the settled answers' outcomes on the door's wire, right after the turn starts
     * @param keep       issues the call that keeps a preview and writes it on the door's wire; false when none was
     *                   issued (the turn then ends as it would have); null when the client takes no approvals
     */
    public PreviewKeeping(AgentOutput wire, Runnable afterStart, Predicate<String> keep) {
        this.wire = wire;
        this.afterStart = afterStart;
        this.keep = keep;
    }

    @Override
    public void emit(AgentEvent event) {
        switch (event) {
            case AgentEvent.TurnStarted e -> {
                wire.emit(e);
                afterStart.run();
            }
            case AgentEvent.PreviewReady e -> {
                if (e.previewId() != null) {
                    previewId = e.previewId();
                }
                wire.emit(e);
            }
            case AgentEvent.Stopped e when keep != null && previewId != null && OFFERED.contains(e.reason()) ->
                    wire.emit(keep.test(previewId) ? new AgentEvent.Stopped(StopReason.PAUSED, e.usage()) : e);
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
