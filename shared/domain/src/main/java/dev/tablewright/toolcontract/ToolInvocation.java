package dev.tablewright.toolcontract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Map;

/**
 * The invocation envelope (docs/tools.md): what the chat function sends a tool Lambda.
 * A bare arguments object (no envelope) is turned into one with only {@code arguments} set.
 *
 * @param arguments     the arguments as the caller (the model) sent them; the door adds nothing to them
 * @param traceparent   the W3C trace context of the chat turn that made the call (its tool function logs the same
 *                      {@code traceId}); null when the caller sent none
 * @param workingConfig the door's working config (the chat's current draft, a table config object) for a tool that
 *                      takes a {@code config} ({@link ToolDefinition#takesWorkingConfig}): what the tool works on when
 *                      the arguments hold none ({@link #config}); null when the door keeps none (MCP) or has none yet
 */
public record ToolInvocation(String tool, String toolCallId, String conversationId, String userId,
                             ObjectNode arguments, Map<String, String> sessionValues, String traceparent,
                             JsonNode workingConfig) {
    public ToolInvocation {
        sessionValues = sessionValues == null ? Map.of() : Map.copyOf(sessionValues);
        workingConfig = workingConfig == null || workingConfig.isNull() ? null : workingConfig;
    }

    /** An invocation with no trace context and no working config (tests, tools run directly). */
    public ToolInvocation(String tool, String toolCallId, String conversationId, String userId,
                          ObjectNode arguments, Map<String, String> sessionValues) {
        this(tool, toolCallId, conversationId, userId, arguments, sessionValues, null, null);
    }

    /** An invocation with no working config (MCP, which keeps none). */
    public ToolInvocation(String tool, String toolCallId, String conversationId, String userId,
                          ObjectNode arguments, Map<String, String> sessionValues, String traceparent) {
        this(tool, toolCallId, conversationId, userId, arguments, sessionValues, traceparent, null);
    }

    /** The same invocation carrying {@code traceparent} (the invokers stamp the turn's trace on the envelope). */
    public ToolInvocation withTraceparent(String traceparent) {
        return new ToolInvocation(tool, toolCallId, conversationId, userId, arguments, sessionValues, traceparent, workingConfig);
    }

    /** The same invocation with other arguments (what a gate admits). */
    public ToolInvocation withArguments(ObjectNode arguments) {
        return new ToolInvocation(tool, toolCallId, conversationId, userId, arguments, sessionValues, traceparent, workingConfig);
    }

    /** The same invocation with the door's working config ({@link #workingConfig}). */
    public ToolInvocation withWorkingConfig(JsonNode workingConfig) {
        return new ToolInvocation(tool, toolCallId, conversationId, userId, arguments, sessionValues, traceparent, workingConfig);
    }

    /**
     * The config a tool that takes one works on: the arguments' {@code config} when the caller gave one, else the
     * {@link #workingConfig}; else whatever the arguments hold there (null, or a JSON null), which the tool refuses as
     * it always has. The one place that says which of the two wins.
     */
    public JsonNode config() {
        JsonNode given = arguments == null ? null : arguments.get(ToolDefinition.CONFIG_ARGUMENT);
        return (given == null || given.isNull()) && workingConfig != null ? workingConfig : given;
    }
}
