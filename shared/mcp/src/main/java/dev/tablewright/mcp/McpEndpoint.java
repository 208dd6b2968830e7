package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.door.FormAnswers;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.mcpsession.McpSession;
import dev.tablewright.mcpsession.McpSessionStore;
import dev.tablewright.store.StoreUnavailableException;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.ProtocolVersions;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Tablewright's MCP server on the Streamable HTTP transport, one HTTP request at a time (any instance serves any
 * session: the session and every open question live in stores).
 *
 * <ul>
 *   <li>{@code POST /mcp}: one JSON-RPC message. {@code initialize} (no session yet) creates a session and answers
 *       its id in {@code Mcp-Session-Id}; every other message needs that header, and a session that is unknown,
 *       expired or another user's answers 404. Requests are answered with JSON, or with an SSE stream when a tool
 *       call asks the user a question first; notifications and responses (the client's answers) with 202.</li>
 *   <li>{@code GET /mcp}: 405 (no server-initiated stream); {@code DELETE /mcp}: ends the session.</li>
 *   <li>{@code GET /.well-known/oauth-protected-resource} (and {@code .../mcp}): the protected-resource metadata.</li>
 * </ul>
 * The parts: {@link McpHttpGuard} (paths, metadata, host, origin, bearer token), {@link JsonRpc} (the messages),
 * {@link McpSessions}, {@link ElicitationReplies} (the client's answers to our questions) and {@link McpMethods} (the
 * router, with {@link ToolMethods} and {@link ResourceMethods}). This class only puts them in order.
 */
public final class McpEndpoint {

    public static final String PATH = "/mcp";
    public static final String METADATA_PATH = "/.well-known/oauth-protected-resource";
    /** The session revisions served ({@code initialize}), newest first: a client asking for another gets the newest. */
    public static final List<String> VERSIONS = List.of(ProtocolVersions.MCP_2025_11_25, ProtocolVersions.MCP_2025_06_18);
    /** Every revision served, newest first: 2026-07-28 per request, then the session revisions. */
    public static final List<String> ALL_VERSIONS = List.of(StatelessRequests.REVISION, ProtocolVersions.MCP_2025_11_25,
            ProtocolVersions.MCP_2025_06_18);
    static final String VERSION_HEADER = "MCP-Protocol-Version";
    static final String INITIALIZE = McpSchema.METHOD_INITIALIZE;

    private static final StructuredLog LOG = StructuredLog.of(McpEndpoint.class);

    private final McpHttpGuard guard;
    private final McpSessions sessions;
    private final ElicitationReplies replies;
    private final ToolMethods toolMethods;
    private final ResourceMethods resourceMethods = new ResourceMethods();
    /** The 2025 sessions' router. */
    private final McpMethods methods;
    /** The 2026-07-28 requests, with their own router. */
    private final StatelessRequests stateless;
    private final ServerInfo server = new ServerInfo();
    private final McpToolServices tools;

    /**
     * @param callerOf        the user an {@code Authorization} header proves (a verified JWT's subject), or empty
     * @param requestStateKey the key material 2026-07-28 {@code requestState}s are sealed with (at least 32 bytes; the
     *                        same in every instance, so any instance continues a call another one began)
     */
    public McpEndpoint(McpSettings settings, Function<String, Optional<String>> callerOf, McpSessionStore sessions,
                       McpToolServices tools, byte[] requestStateKey, Clock clock) {
        this.guard = new McpHttpGuard(settings, callerOf);
        this.sessions = new McpSessions(settings, sessions, server, clock);
        this.replies = new ElicitationReplies(new FormAnswers(tools.inputRequests()));
        this.tools = tools;
        this.toolMethods = new ToolMethods(settings, tools, new RequestStateSeal(requestStateKey), clock);
        this.methods = new McpMethods()
                .add(McpSchema.METHOD_PING, request -> Json.object())
                .add(McpSchema.METHOD_TOOLS_LIST, toolMethods::list)
                .add(McpSchema.METHOD_RESOURCES_LIST, resourceMethods::list)
                .add(McpSchema.METHOD_RESOURCES_TEMPLATES_LIST, resourceMethods::templates)
                .add(McpSchema.METHOD_RESOURCES_READ, resourceMethods::read)
                .addStreaming(McpSchema.METHOD_TOOLS_CALL, toolMethods::call);
        this.stateless = new StatelessRequests(server, ALL_VERSIONS);
        stateless.methods()
                .add(DISCOVER, request -> server.discoverResult(ALL_VERSIONS, stateless.methods()))
                .add(McpSchema.METHOD_TOOLS_LIST, request -> ServerInfo.cacheable((ObjectNode) toolMethods.list(request)))
                .add(McpSchema.METHOD_TOOLS_CALL, toolMethods::callStateless)
                // the MCP Apps views: static pages, the same for every user, so cacheable as the 2026 revision asks
                .add(McpSchema.METHOD_RESOURCES_LIST, request -> ServerInfo.cacheable((ObjectNode) resourceMethods.list(request)))
                .add(McpSchema.METHOD_RESOURCES_TEMPLATES_LIST,
                        request -> ServerInfo.cacheable((ObjectNode) resourceMethods.templates(request)))
                .add(McpSchema.METHOD_RESOURCES_READ, request -> ServerInfo.cacheable((ObjectNode) resourceMethods.read(request)));
    }

    /** The 2026-07-28 revision's discovery method. */
    static final String DISCOVER = "server/discover";

    /** The namespace of the per-request metrics ({@link dev.tablewright.logging.Metrics#MCP}); the stack's {@code METRICS_NAMESPACE}. */
    public McpEndpoint publishingMetricsTo(String namespace) {
        methods.publishMetricsTo(namespace);
        stateless.methods().publishMetricsTo(namespace);
        return this;
    }

    public void handle(McpHttpRequest request, HttpResponseStream response, Optional<Instant> deadline) {
        try {
            Optional<String> owner = guard.admit(request, response);
            if (owner.isEmpty()) {
                return;
            }
            StructuredLog.put("userId", owner.get());
            switch (request.method()) {
                case "POST" -> post(request, owner.get(), response, deadline);
                case "DELETE" -> sessions.delete(request, owner.get(), response);
                default -> JsonRpc.send(response, 405, Map.of("allow", "POST, DELETE"), JsonRpc.error(null, JsonRpc.SERVER_ERROR,
                        "Method not allowed: this server opens no stream of its own (GET); POST messages"));
            }
        } catch (StoreUnavailableException e) {
            LOG.warn("a store is unavailable", "cause", String.valueOf(e.getMessage()));
            if (!response.isStarted()) {
                JsonRpc.send(response, 503, Map.of("retry-after", "2"),
                        JsonRpc.error(null, JsonRpc.SERVER_ERROR, "Temporarily unavailable; try again shortly"));
            }
        }
    }

    private void post(McpHttpRequest request, String owner, HttpResponseStream response, Optional<Instant> deadline) {
        JsonRpc.Message message;
        try {
            message = JsonRpc.decode(request.body());
        } catch (JsonRpc.Malformed e) {
            JsonRpc.send(response, 400, Map.of(), e.error());
            return;
        }
        String method = message.method();
        if (StatelessRequests.carriesVersion(message) && !sessionOfAnEarlierRevision(request, message)) {
            stateless.serve(request, owner, message, response, deadline);
            return;
        }
        if (INITIALIZE.equals(method)) {
            if (!message.hasId()) {
                JsonRpc.send(response, 400, Map.of(), JsonRpc.error(null, JsonRpc.INVALID_REQUEST, "Invalid request: initialize needs an id"));
                return;
            }
            long started = System.nanoTime();
            sessions.initialize(owner, message.id(), message.params(), response);
            methods.measured(method, started, false);
            return;
        }
        if (message.hasId() && method != null && isBlank(request.header(McpSessions.SESSION_HEADER))) {
            // neither era: no session to be served in, no _meta to be served by
            JsonRpc.send(response, 400, Map.of(), JsonRpc.error(message.id(), JsonRpc.INVALID_PARAMS,
                    "Invalid params: a request needs _meta[\"" + StatelessRequests.PROTOCOL_VERSION + "\"] (2026-07-28), "
                            + "or a session: initialize first and send its Mcp-Session-Id (2025-11-25, 2025-06-18)"));
            return;
        }
        Optional<McpSession> session = sessions.of(request, owner, response);
        if (session.isEmpty()) {
            return;
        }
        StructuredLog.put("mcpSessionId", session.get().sessionId());
        String version = request.header(VERSION_HEADER);
        if (version != null && !VERSIONS.contains(version)) {
            JsonRpc.send(response, 400, Map.of(), JsonRpc.error(message.id(), JsonRpc.INVALID_REQUEST,
                    "Bad Request: unsupported MCP-Protocol-Version " + JsonRpc.clip(version) + " (served: " + String.join(", ", VERSIONS) + ")"));
            return;
        }
        if (method == null) {
            if (message.isResponse()) {
                replies.answer(session.get(), message.id().asText(), message.body());
                JsonRpc.accepted(response);
            } else {
                JsonRpc.send(response, 400, Map.of(), JsonRpc.error(null, JsonRpc.INVALID_REQUEST, "Invalid request: neither a request, a notification nor a response"));
            }
            return;
        }
        if (!message.hasId()) {
            if (ElicitationReplies.CANCELLED_NOTIFICATION.equals(method)) {
                replies.cancelQuestionsOf(session.get(), message.params().path("requestId"));
            }
            JsonRpc.accepted(response); // notifications (initialized, cancelled, ...) need no answer
            return;
        }
        methods.route(new McpRequest(McpCaller.of(session.get()), message.id(), method, message.params(), deadline), response);
    }

    /** A session's message whose {@code _meta} names a 2025 revision: served in its session, as that revision is. */
    private static boolean sessionOfAnEarlierRevision(McpHttpRequest request, JsonRpc.Message message) {
        return !isBlank(request.header(McpSessions.SESSION_HEADER))
                && VERSIONS.contains(message.params().path("_meta").path(StatelessRequests.PROTOCOL_VERSION).asText(""));
    }

    private static boolean isBlank(String value) {
        return value == null || value.isBlank();
    }

    /**
     * SnapStart priming: what a restored function would otherwise load on its first requests (a message read, the
     * initialize answer, the tool list, a tool result, the view's resource, written as JSON), with no store and no
     * tool called.
     */
    public void prime() {
        try {
            JsonRpc.decode("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{}}");
        } catch (JsonRpc.Malformed e) {
            throw new IllegalStateException(e);
        }
        Json.write(JsonRpc.result(Json.MAPPER.getNodeFactory().numberNode(0), Json.MAPPER.valueToTree(server.initializeResult(VERSIONS.get(0)))));
        ObjectNode list = Json.object();
        list.set("tools", Json.MAPPER.valueToTree(tools.catalogue().tools(true)));
        Json.write(JsonRpc.result(Json.MAPPER.getNodeFactory().numberNode(1), list));
        Json.write(JsonRpc.result(Json.MAPPER.getNodeFactory().numberNode(4), Json.MAPPER.valueToTree(
                McpApps.read(McpApps.PREVIEW_URI).orElseThrow())));
        Json.write(JsonRpc.result(Json.MAPPER.getNodeFactory().numberNode(2), Json.MAPPER.valueToTree(
                ToolResults.success(Json.object().put("primed", true), true))));
        // 2026-07-28: the discovery answer, and a requestState sealed and opened (the cipher's classes)
        Json.write(JsonRpc.result(Json.MAPPER.getNodeFactory().numberNode(3),
                stateless.identified(server.discoverResult(ALL_VERSIONS, stateless.methods()))));
        toolMethods.prime();
    }
}
