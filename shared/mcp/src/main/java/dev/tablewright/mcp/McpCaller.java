package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.mcpsession.McpSession;

/**
 * Who calls and what their client can do, whichever era the request is of: a 2025 session's stored capabilities, or
 * a 2026-07-28 request's own {@code _meta}.
 *
 * @param conversationId the conversation the input-request lifecycle keys this caller's questions and saved values
 *                       by: the session's ({@code mcp-<session id>}), or {@value #STATELESS_CONVERSATION} for a 2026
 *                       request, in which nothing is ever saved (so only the values the user chose to keep across
 *                       conversations apply)
 * @param capabilities   the client's capabilities object (never null)
 */
record McpCaller(String ownerId, String protocolVersion, JsonNode capabilities, String conversationId) {

    static final String STATELESS_CONVERSATION = "mcp-stateless";

    static McpCaller of(McpSession session) {
        return new McpCaller(session.ownerId(), session.protocolVersion(), session.clientCapabilities(), "mcp-" + session.sessionId());
    }

    /** Whether the client can answer form-mode elicitation (an empty {@code elicitation} object means form). */
    boolean elicitsForms() {
        JsonNode elicitation = capabilities.get("elicitation");
        if (elicitation == null || !elicitation.isObject()) {
            return false;
        }
        return elicitation.isEmpty() || elicitation.has("form");
    }

    /** Whether the client can answer URL-mode elicitation (declared as {@code elicitation.url}). */
    boolean elicitsUrls() {
        JsonNode elicitation = capabilities.get("elicitation");
        return elicitation != null && elicitation.has("url");
    }
}
