package dev.tablewright.agent.model;

import java.util.List;

/**
 * What the model produced in one step: its text, the tool calls (arguments as the model wrote them, possibly
 * malformed), why it stopped (as the provider's reason maps to a {@link FinishReason}) and the tokens it used.
 */
public record ModelStep(String text, List<ToolCallRequest> toolCalls, FinishReason finishReason, TokenUsage usage) {
    public ModelStep {
        toolCalls = List.copyOf(toolCalls);
    }
}
