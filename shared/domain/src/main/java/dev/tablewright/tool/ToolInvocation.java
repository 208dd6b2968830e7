package dev.tablewright.tool;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Map;

/**
 * The invocation envelope (docs/tools.md): what the chat function sends a tool Lambda.
 * A bare arguments object (no envelope) is turned into one with only {@code arguments} set.
 */
public record ToolInvocation(String tool, String toolCallId, String conversationId, String userId,
                             ObjectNode arguments, Map<String, String> sessionValues) {
    public ToolInvocation {
        sessionValues = sessionValues == null ? Map.of() : Map.copyOf(sessionValues);
    }
}
