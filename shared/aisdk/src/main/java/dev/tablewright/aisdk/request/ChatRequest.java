package dev.tablewright.aisdk.request;

import dev.tablewright.agent.PageContext;
import dev.tablewright.agent.toolcall.ClientTool;

import java.util.List;

/**
 * The chat endpoint's request: the body {@code useChat} sends ({@code id}, {@code messages}, {@code trigger},
 * {@code messageId}) plus {@code context} and the client's own tools.
 *
 * @param newMessageOnly the AI SDK's persistence form: the body held one new {@code message}, and the server adds
 *                       the stored history before the turn ({@link #withHistory})
 * @param toolApprovals  {@code "toolApprovals": true}: the client takes the AI SDK's tool approvals (6+), so a pending
 *                       preview ends the turn with a call to keep it that waits for the user's approval
 */
public record ChatRequest(String id, List<UiMessage> messages, String trigger, String messageId,
                          PageContext context, List<ClientTool> clientTools, boolean newMessageOnly, boolean toolApprovals) {
    public ChatRequest {
        messages = List.copyOf(messages);
        clientTools = clientTools == null ? List.of() : List.copyOf(clientTools);
    }

    public ChatRequest(String id, List<UiMessage> messages, String trigger, String messageId,
                       PageContext context, List<ClientTool> clientTools, boolean newMessageOnly) {
        this(id, messages, trigger, messageId, context, clientTools, newMessageOnly, false);
    }

    /** The same request over the whole conversation. */
    public ChatRequest withHistory(List<UiMessage> history) {
        return new ChatRequest(id, history, trigger, messageId, context, clientTools, false, toolApprovals);
    }

    /** The same request with {@code messages} instead of its own. */
    public ChatRequest withMessages(List<UiMessage> replaced) {
        return new ChatRequest(id, replaced, trigger, messageId, context, clientTools, newMessageOnly, toolApprovals);
    }

    public boolean isClientTool(String name) {
        return clientTools.stream().anyMatch(t -> t.name().equals(name));
    }
}
