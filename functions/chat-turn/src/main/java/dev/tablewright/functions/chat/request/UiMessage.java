package dev.tablewright.functions.chat.request;

import java.util.List;

/** One message of the AI SDK {@code useChat} body: role system, user or assistant, and its parts. */
public record UiMessage(String id, String role, List<UiPart> parts) {
    public UiMessage {
        parts = List.copyOf(parts);
    }
}
