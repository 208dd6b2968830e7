package dev.tablewright.toolcontract;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Map;

/**
 * The invocation envelope (docs/tools.md): what the chat function sends a tool Lambda.
 * A bare arguments object (no envelope) is turned into one with only {@code arguments} set.
 *
 * @param traceparent the W3C trace context of the chat turn that made the call (its tool function logs the same
 *                    {@code traceId}); null when the caller sent none
 */
public record ToolInvocation(String tool, String toolCallId, String conversationId, String userId,
                             ObjectNode arguments, Map<String, String> sessionValues, String traceparent) {
    public ToolInvocation {
        sessionValues = sessionValues == null ? Map.of() : Map.copyOf(sessionValues);
    }

    /** An invocation with no trace context (tests, tools run directly). */
    public ToolInvocation(String tool, String toolCallId, String conversationId, String userId,
                          ObjectNode arguments, Map<String, String> sessionValues) {
        this(tool, toolCallId, conversationId, userId, arguments, sessionValues, null);
    }

    /** The same invocation carrying {@code traceparent} (the invokers stamp the turn's trace on the envelope). */
    public ToolInvocation withTraceparent(String traceparent) {
        return new ToolInvocation(tool, toolCallId, conversationId, userId, arguments, sessionValues, traceparent);
    }

    /** The same invocation with other arguments (what a gate admits). */
    public ToolInvocation withArguments(ObjectNode arguments) {
        return new ToolInvocation(tool, toolCallId, conversationId, userId, arguments, sessionValues, traceparent);
    }
}
