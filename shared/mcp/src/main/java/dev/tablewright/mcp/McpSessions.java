package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.mcpsession.McpSession;
import dev.tablewright.mcpsession.McpSessionStore;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * The 2025 revisions' sessions: {@code initialize} opens one (stored, so any instance serves it), each later message
 * names it in {@code Mcp-Session-Id}, {@code DELETE} ends it. An unknown, expired or another user's session is a 404.
 */
final class McpSessions {

    static final String SESSION_HEADER = "Mcp-Session-Id";
    private static final StructuredLog LOG = StructuredLog.of(McpSessions.class);

    private final McpSettings settings;
    private final McpSessionStore store;
    private final ServerInfo server;
    private final Clock clock;

    McpSessions(McpSettings settings, McpSessionStore store, ServerInfo server, Clock clock) {
        this.settings = settings;
        this.store = store;
        this.server = server;
        this.clock = clock;
    }

    /** {@code initialize}: a new session at the revision agreed (the client's, when served; else the newest). */
    void initialize(String owner, JsonNode id, JsonNode params, HttpResponseStream response) {
        String requested = params.path("protocolVersion").asText("");
        String agreed = McpEndpoint.VERSIONS.contains(requested) ? requested : McpEndpoint.VERSIONS.get(0);
        JsonNode capabilities = params.path("capabilities").isObject() ? params.path("capabilities") : Json.object();
        Instant now = clock.instant();
        McpSession session = new McpSession(ToolCall.newId(""), owner, agreed, capabilities,
                params.path("clientInfo").path("name").asText(null), now, now.plus(settings.sessionTtl()));
        store.create(session);
        LOG.info("session created", "mcpSessionId", session.sessionId(), "protocolVersion", agreed,
                "client", String.valueOf(session.clientName()), "elicitation", session.elicitsForms());
        JsonRpc.send(response, 200, Map.of(SESSION_HEADER, session.sessionId()),
                JsonRpc.result(id, Json.MAPPER.valueToTree(server.initializeResult(agreed))));
    }

    /** The request's session, usable by {@code owner}; otherwise the 400 or 404 is sent and the answer is empty. */
    Optional<McpSession> of(McpHttpRequest request, String owner, HttpResponseStream response) {
        String id = request.header(SESSION_HEADER);
        if (id == null || id.isBlank()) {
            JsonRpc.send(response, 400, Map.of(), JsonRpc.error(null, JsonRpc.SERVER_ERROR,
                    "Bad Request: the Mcp-Session-Id header is required (initialize first)"));
            return Optional.empty();
        }
        Optional<McpSession> found = id.length() > 128 ? Optional.empty() : store.find(id.strip());
        if (found.isEmpty() || !found.get().usableBy(owner, clock.instant())) {
            // another user's session reads exactly like an unknown one
            JsonRpc.send(response, 404, Map.of(), JsonRpc.error(null, -32001, "Session not found: initialize a new session"));
            return Optional.empty();
        }
        return found;
    }

    /** {@code DELETE /mcp}: the session ends. */
    void delete(McpHttpRequest request, String owner, HttpResponseStream response) {
        Optional<McpSession> session = of(request, owner, response);
        if (session.isEmpty()) {
            return;
        }
        store.delete(owner, session.get().sessionId());
        LOG.info("session ended", "mcpSessionId", session.get().sessionId());
        JsonRpc.send(response, 200, Map.of(), Json.object());
    }
}
