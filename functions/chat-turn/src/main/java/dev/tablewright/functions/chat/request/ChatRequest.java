package dev.tablewright.functions.chat.request;

import java.util.List;

/**
 * The chat endpoint's request: the body {@code useChat} sends ({@code id}, {@code messages}, {@code trigger},
 * {@code messageId}) plus {@code context} and the client's own tools.
 */
public record ChatRequest(String id, List<UiMessage> messages, String trigger, String messageId,
                          ChatContext context, List<ClientTool> clientTools) {
    public ChatRequest {
        messages = List.copyOf(messages);
        clientTools = clientTools == null ? List.of() : List.copyOf(clientTools);
    }

    public boolean isClientTool(String name) {
        return clientTools.stream().anyMatch(t -> t.name().equals(name));
    }
}
