package dev.tablewright.agent;

import dev.tablewright.agent.memory.Transcript;
import dev.tablewright.agent.model.TokenUsage;
import dev.tablewright.conversation.WorkingDraft;

import java.util.List;
import java.util.Optional;

/**
 * How a turn ended and what to keep of it: the draft as the turn left it, the transcript with this turn added,
 * already compacted to the memory budget, the calls left open (a paused turn's questions and client tools, in
 * the order they were made; empty otherwise), so that a door reads them here instead of from its own wire, and the
 * key the turn is remembered by ({@link AgentInput#turnKey()}).
 */
public record AgentResult(StopReason reason, Optional<WorkingDraft> draft, Transcript transcript, TokenUsage usage,
                          List<DeferredCall> pending, String turnKey) {
    public AgentResult {
        pending = pending == null ? List.of() : List.copyOf(pending);
    }

    public AgentResult(StopReason reason, Optional<WorkingDraft> draft, Transcript transcript, TokenUsage usage) {
        this(reason, draft, transcript, usage, List.of(), null);
    }

    /** The turn as it paused, to be kept with the conversation; empty when it did not pause on open calls. */
    public Optional<PausedTurn> paused() {
        return pending.isEmpty() ? Optional.empty() : Optional.of(new PausedTurn(turnKey, pending));
    }
}
