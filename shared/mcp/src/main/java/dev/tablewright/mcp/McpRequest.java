package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.mcpsession.McpSession;

import java.time.Instant;
import java.util.Optional;

/**
 * One JSON-RPC request to a method of the router ({@link McpMethods}): who sends it, in which session, its id and
 * params, and when the invocation serving it must end.
 *
 * @param deadline the invocation's deadline, when the platform tells it
 */
record McpRequest(McpSession session, JsonNode id, String method, JsonNode params, Optional<Instant> deadline) {

    String ownerId() {
        return session.ownerId();
    }

    /** Whether the client declared MCP Apps ({@link McpApps#declaredBy}): it is offered the views and their tools. */
    boolean showsApps() {
        return McpApps.declaredBy(session.clientCapabilities());
    }
}
