package dev.tablewright.agent.model;

import java.time.Instant;
import java.util.List;

/**
 * One step's call to the model: the messages (system prompt first), the tools it may call, its output token
 * budget, and the instant by which the call must be over (the turn's wall-time budget).
 */
public record ModelRequest(List<ModelMessage> messages, List<ModelTool> tools, int maxOutputTokens, Instant deadline,
                           CancelHook cancelHook) {
    public ModelRequest {
        messages = List.copyOf(messages);
        tools = List.copyOf(tools);
        cancelHook = cancelHook == null ? c -> { } : cancelHook;
    }

    /** Receives the way to abort the call in flight (the turn runs it when the client goes away). */
    @FunctionalInterface
    public interface CancelHook {
        void register(Runnable cancel);
    }
}
