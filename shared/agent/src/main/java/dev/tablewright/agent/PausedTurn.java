package dev.tablewright.agent;

import java.util.List;

/**
 * A turn that ended {@link StopReason#PAUSED}, as the agent recorded it: the key it is remembered by in the transcript
 * and the calls it left open ({@link AgentResult#pending()}). Kept with the conversation, it tells the door that
 * resumes the turn which calls are open, so the door does not re-derive them from its own wire.
 */
public record PausedTurn(String turnKey, List<DeferredCall> calls) {
    public PausedTurn {
        calls = List.copyOf(calls);
    }
}
