package dev.tablewright.agent;

import dev.tablewright.agent.memory.Transcript;
import dev.tablewright.agent.model.TokenUsage;
import dev.tablewright.conversation.WorkingDraft;

import java.util.Optional;

/**
 * How a turn ended and what to keep of it: the draft as the turn left it, and the transcript with this turn added,
 * already compacted to the memory budget.
 */
public record AgentResult(StopReason reason, Optional<WorkingDraft> draft, Transcript transcript, TokenUsage usage) {
}
