package dev.tablewright.aisdk.request;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/**
 * One message of the AI SDK {@code useChat} body: role system, user or assistant, and its parts; {@code json} is
 * the message exactly as it was sent (what the conversation store keeps).
 */
public record UiMessage(String id, String role, List<UiPart> parts, JsonNode json) {
    public UiMessage {
        parts = List.copyOf(parts);
    }
}
