package dev.tablewright.aisdk.request;

import dev.tablewright.agent.PageContext;
import dev.tablewright.agent.tools.ClientTool;

import java.util.List;

/**
 * The chat endpoint's request: the body {@code useChat} sends ({@code id}, {@code messages}, {@code trigger},
 * {@code messageId}) plus {@code context} and the client's own tools.
 *
 * @param newMessageOnly the AI SDK's persistence form: the body held one new {@code message}, and the server adds
 *                       the stored history before the turn ({@link #withHistory})
 */
public record ChatRequest(String id, List<UiMessage> messages, String trigger, String messageId,
                          PageContext context, List<ClientTool> clientTools, boolean newMessageOnly) {
    public ChatRequest {
        messages = List.copyOf(messages);
        clientTools = clientTools == null ? List.of() : List.copyOf(clientTools);
    }

    /** The same request over the whole conversation. */
    public ChatRequest withHistory(List<UiMessage> history) {
        return new ChatRequest(id, history, trigger, messageId, context, clientTools, false);
    }

    public boolean isClientTool(String name) {
        return clientTools.stream().anyMatch(t -> t.name().equals(name));
    }
}
