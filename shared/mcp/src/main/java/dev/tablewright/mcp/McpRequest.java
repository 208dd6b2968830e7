package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;
import java.util.Optional;

/**
 * One JSON-RPC request to a method of a router ({@link McpMethods}): who sends it and what their client can do (a
 * 2025 session's, or a 2026-07-28 request's own {@code _meta}), its id and params, and when the invocation serving
 * it must end.
 *
 * @param deadline the invocation's deadline, when the platform tells it
 */
record McpRequest(McpCaller caller, JsonNode id, String method, JsonNode params, Optional<Instant> deadline) {

    String ownerId() {
        return caller.ownerId();
    }

    /**
     * Whether the client declared MCP Apps ({@link McpApps#declaredBy}), in its session's capabilities or a 2026-07-28
     * request's {@code _meta}: it is offered the views and their tools.
     */
    boolean showsApps() {
        return McpApps.declaredBy(caller.capabilities());
    }
}
