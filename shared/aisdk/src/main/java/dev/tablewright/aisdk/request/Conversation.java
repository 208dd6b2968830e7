package dev.tablewright.aisdk.request;

import dev.tablewright.agent.model.ModelMessage;

import java.util.List;

/**
 * The history in model messages, and the tool calls of the last assistant step that have no result yet (a tool
 * waiting for the user's input, or a client tool whose output did not come back): the turn settles those first.
 */
public record Conversation(List<ModelMessage> messages, List<UiPart.ToolCall> pending) {
    public Conversation {
        messages = List.copyOf(messages);
        pending = List.copyOf(pending);
    }
}
