package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.json.Json;
import dev.tablewright.logging.MetricRecord;
import dev.tablewright.logging.Metrics;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.mcpsession.McpSession;
import dev.tablewright.mcpsession.McpSessionStore;
import dev.tablewright.store.StoreUnavailableException;
import dev.tablewright.tool.ToolDefinition;
import dev.tablewright.userinput.InputRequestConflictException;
import dev.tablewright.userinput.InputRequestNotFoundException;
import dev.tablewright.userinput.RequestStatus;
import dev.tablewright.userinput.InvalidInputException;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.ProtocolVersions;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
 * Every request but the metadata needs a valid bearer token (401 with {@code WWW-Authenticate} naming the metadata
 * otherwise); a {@code Host} or {@code Origin} that is not allowed is refused with 403 before anything else.
 */
public final class McpEndpoint {

    /** A client cancelling one of its requests (the SDK's schema names no constant for it). */
    static final String CANCELLED_NOTIFICATION = "notifications/cancelled";

    public static final String PATH = "/mcp";
    public static final String METADATA_PATH = "/.well-known/oauth-protected-resource";
    /** The revisions served, newest first: a client asking for another gets the newest. */
    public static final List<String> VERSIONS = List.of(ProtocolVersions.MCP_2025_11_25, ProtocolVersions.MCP_2025_06_18);
    static final String SESSION_HEADER = "Mcp-Session-Id";
    static final String VERSION_HEADER = "MCP-Protocol-Version";

    private static final StructuredLog LOG = StructuredLog.of(McpEndpoint.class);
    private static final int PARSE_ERROR = -32700;
    private static final int INVALID_REQUEST = -32600;
    private static final int METHOD_NOT_FOUND = -32601;
    private static final int INVALID_PARAMS = -32602;
    private static final int SERVER_ERROR = -32000;

    private final McpSettings settings;
    private final Function<String, Optional<String>> callerOf;
    private final McpSessionStore sessions;
    private final McpToolServices tools;
    private final Clock clock;
    private final String serverVersion;
    private String metricsNamespace = Metrics.DEFAULT_NAMESPACE;

    /**
     * @param callerOf the user an {@code Authorization} header proves (a verified JWT's subject), or empty
     */
    public McpEndpoint(McpSettings settings, Function<String, Optional<String>> callerOf, McpSessionStore sessions,
                       McpToolServices tools, Clock clock) {
        this.settings = settings;
        this.callerOf = callerOf;
        this.sessions = sessions;
        this.tools = tools;
        this.clock = clock;
        String version = McpEndpoint.class.getPackage().getImplementationVersion();
        this.serverVersion = version == null ? "0.1.0" : version;
    }

    /** The namespace of the per-request metrics ({@link Metrics#MCP}); the stack's {@code METRICS_NAMESPACE}. */
    public McpEndpoint publishingMetricsTo(String namespace) {
        this.metricsNamespace = namespace;
        return this;
    }

    public void handle(McpHttpRequest request, HttpResponseStream response, Optional<Instant> deadline) {
        try {
            route(request, response, deadline);
        } catch (StoreUnavailableException e) {
            LOG.warn("a store is unavailable", "cause", String.valueOf(e.getMessage()));
            if (!response.isStarted()) {
                send(response, 503, Map.of("retry-after", "2"), error(null, SERVER_ERROR, "Temporarily unavailable; try again shortly"));
            }
        }
    }

    private void route(McpHttpRequest request, HttpResponseStream response, Optional<Instant> deadline) {
        String path = request.path();
        if (path.equals(METADATA_PATH) || path.equals(METADATA_PATH + PATH)) {
            if (!request.method().equals("GET")) {
                send(response, 405, Map.of("allow", "GET"), Json.object().put("error", "method not allowed"));
                return;
            }
            send(response, 200, Map.of("cache-control", "max-age=3600"), metadata(request));
            return;
        }
        if (!path.equals(PATH)) {
            send(response, 404, Map.of(), Json.object().put("error", "not found"));
            return;
        }
        String refusal = hostOrOriginRefusal(request);
        if (refusal != null) {
            LOG.info("refused by host or origin", "host", String.valueOf(request.header("host")), "origin", String.valueOf(request.header("origin")));
            send(response, 403, Map.of(), error(null, SERVER_ERROR, refusal));
            return;
        }
        Optional<String> owner = callerOf.apply(request.header("authorization"));
        if (owner.isEmpty()) {
            send(response, 401, Map.of("www-authenticate", "Bearer resource_metadata=\"" + metadataUrl(request) + "\""),
                    error(null, SERVER_ERROR, "Unauthorized: sign in and send the access token as a bearer token"));
            return;
        }
        StructuredLog.put("userId", owner.get());
        switch (request.method()) {
            case "POST" -> post(request, owner.get(), response, deadline);
            case "DELETE" -> delete(request, owner.get(), response);
            default -> send(response, 405, Map.of("allow", "POST, DELETE"),
                    error(null, SERVER_ERROR, "Method not allowed: this server opens no stream of its own (GET); POST messages"));
        }
    }

    // ---- POST ----

    private void post(McpHttpRequest request, String owner, HttpResponseStream response, Optional<Instant> deadline) {
        JsonNode message;
        try {
            message = Json.parse(request.body());
        } catch (Exception e) {
            send(response, 400, Map.of(), error(null, PARSE_ERROR, "Parse error: the body is not JSON"));
            return;
        }
        if (message == null || !message.isObject()) {
            send(response, 400, Map.of(), error(null, INVALID_REQUEST, "Invalid request: one JSON-RPC message object per POST (no batches)"));
            return;
        }
        JsonNode id = message.get("id");
        boolean hasId = id != null && (id.isTextual() || id.isIntegralNumber());
        if (!"2.0".equals(message.path("jsonrpc").asText(null))) {
            send(response, 400, Map.of(), error(hasId ? id : null, INVALID_REQUEST, "Invalid request: jsonrpc must be \"2.0\""));
            return;
        }
        JsonNode methodNode = message.get("method");
        if (methodNode != null && !methodNode.isTextual()) {
            send(response, 400, Map.of(), error(hasId ? id : null, INVALID_REQUEST, "Invalid request: method must be a string"));
            return;
        }
        String method = methodNode == null ? null : methodNode.textValue();
        if (McpSchema.METHOD_INITIALIZE.equals(method)) {
            if (!hasId) {
                send(response, 400, Map.of(), error(null, INVALID_REQUEST, "Invalid request: initialize needs an id"));
                return;
            }
            long started = System.nanoTime();
            initialize(owner, id, message.path("params"), response);
            measured(method, started, false);
            return;
        }
        Optional<McpSession> session = session(request, owner, response);
        if (session.isEmpty()) {
            return;
        }
        StructuredLog.put("mcpSessionId", session.get().sessionId());
        String version = request.header(VERSION_HEADER);
        if (version != null && !VERSIONS.contains(version)) {
            send(response, 400, Map.of(), error(hasId ? id : null, INVALID_REQUEST,
                    "Bad Request: unsupported MCP-Protocol-Version " + clip(version) + " (served: " + String.join(", ", VERSIONS) + ")"));
            return;
        }
        if (method == null) {
            if (hasId && (message.has("result") || message.has("error"))) {
                answer(session.get(), id.asText(), message);
                accepted(response);
            } else {
                send(response, 400, Map.of(), error(null, INVALID_REQUEST, "Invalid request: neither a request, a notification nor a response"));
            }
            return;
        }
        if (!hasId) {
            if (CANCELLED_NOTIFICATION.equals(method)) {
                cancelQuestionsOf(session.get(), message.path("params").path("requestId"));
            }
            accepted(response); // notifications (initialized, cancelled, ...) need no answer
            return;
        }
        JsonNode params = message.path("params");
        long started = System.nanoTime();
        boolean failed = false;
        switch (method) {
            case McpSchema.METHOD_PING -> send(response, 200, Map.of(), result(id, Json.object()));
            case McpSchema.METHOD_TOOLS_LIST -> {
                ObjectNode result = Json.object();
                result.set("tools", Json.MAPPER.valueToTree(tools.catalogue().tools()));
                send(response, 200, Map.of(), result(id, result));
            }
            case McpSchema.METHOD_TOOLS_CALL -> callTool(session.get(), id, params, response, deadline);
            default -> {
                failed = true;
                send(response, 200, Map.of(), error(id, METHOD_NOT_FOUND, "Method not found: " + clip(method)));
            }
        }
        measured(method, started, failed);
    }

    /** The request's EMF record ({@link Metrics#MCP}), by method; any method the server does not serve is {@code other}. */
    private void measured(String method, long startedNanos, boolean failed) {
        String dimension = switch (method) {
            case McpSchema.METHOD_INITIALIZE, McpSchema.METHOD_PING, McpSchema.METHOD_TOOLS_LIST, McpSchema.METHOD_TOOLS_CALL -> method;
            default -> "other";
        };
        MetricRecord.of(LOG, metricsNamespace, Metrics.MCP).dimension(dimension)
                .value(Metrics.MCP_REQUEST_DURATION, (System.nanoTime() - startedNanos) / 1e6)
                .value(Metrics.MCP_ERRORS, failed ? 1 : 0)
                .write();
    }

    private void initialize(String owner, JsonNode id, JsonNode params, HttpResponseStream response) {
        String requested = params.path("protocolVersion").asText("");
        String agreed = VERSIONS.contains(requested) ? requested : VERSIONS.get(0);
        JsonNode capabilities = params.path("capabilities").isObject() ? params.path("capabilities") : Json.object();
        Instant now = clock.instant();
        McpSession session = new McpSession(ToolCall.newId(""), owner, agreed, capabilities,
                params.path("clientInfo").path("name").asText(null), now, now.plus(settings.sessionTtl()));
        sessions.create(session);
        LOG.info("session created", "mcpSessionId", session.sessionId(), "protocolVersion", agreed,
                "client", String.valueOf(session.clientName()), "elicitation", session.elicitsForms());
        send(response, 200, Map.of(SESSION_HEADER, session.sessionId()), result(id, Json.MAPPER.valueToTree(initializeResult(agreed))));
    }

    private McpSchema.InitializeResult initializeResult(String agreed) {
        return new McpSchema.InitializeResult(agreed,
                new McpSchema.ServerCapabilities(null, null, null, null, null, new McpSchema.ServerCapabilities.ToolCapabilities(false)),
                new McpSchema.Implementation("tablewright", "Tablewright", serverVersion),
                "Tablewright builds table configs one validated step at a time: search_database_schema to find tables, "
                        + "the apply_*_change tools to change a config, validate_table_config, then preview_table_config. "
                        + "Only the user can save: accept_preview asks them to confirm.");
    }

    /**
     * SnapStart priming: what a restored function would otherwise load on its first requests (a message read, the
     * initialize answer, the tool list, a tool result, written as JSON), with no store and no tool called.
     */
    public void prime() {
        try {
            Json.parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{}}");
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        Json.write(result(Json.MAPPER.getNodeFactory().numberNode(0), Json.MAPPER.valueToTree(initializeResult(VERSIONS.get(0)))));
        ObjectNode list = Json.object();
        list.set("tools", Json.MAPPER.valueToTree(tools.catalogue().tools()));
        Json.write(result(Json.MAPPER.getNodeFactory().numberNode(1), list));
        Json.write(result(Json.MAPPER.getNodeFactory().numberNode(2), Json.MAPPER.valueToTree(
                ToolResults.success(Json.object().put("primed", true), true))));
    }

    private void callTool(McpSession session, JsonNode id, JsonNode params, HttpResponseStream response, Optional<Instant> deadline) {
        JsonNode name = params.get("name");
        if (name == null || !name.isTextual()) {
            send(response, 200, Map.of(), error(id, INVALID_PARAMS, "Invalid params: params.name must be a string"));
            return;
        }
        Optional<ToolDefinition> tool = tools.catalogue().definition(name.textValue());
        if (tool.isEmpty()) {
            send(response, 200, Map.of(), error(id, INVALID_PARAMS, "Unknown tool: " + clip(name.textValue())));
            return;
        }
        EventStream stream = new EventStream(response, Map.of());
        McpSchema.CallToolResult result;
        JsonNode arguments = params.get("arguments");
        if (arguments != null && !arguments.isNull() && !arguments.isObject()) {
            result = ToolResults.failure("arguments: expected an object, got " + Json.kind(arguments));
        } else {
            ObjectNode args = arguments == null || arguments.isNull() ? Json.object() : (ObjectNode) arguments;
            try {
                result = new ToolCall(settings, tools, session, stream, deadline, clock, id).run(tool.get(), args);
            } catch (StoreUnavailableException e) {
                LOG.warn("a store is unavailable during a tool call", "cause", String.valueOf(e.getMessage()));
                result = ToolResults.failure("A store Tablewright needs is unavailable just now; try again shortly.");
            } catch (RuntimeException e) {
                LOG.error("tool call failed", e, "tool", name.textValue());
                result = ToolResults.failure("The tool failed unexpectedly.");
            }
        }
        ObjectNode answer = result(id, Json.MAPPER.valueToTree(result));
        if (stream.started()) {
            stream.send(answer);
            response.close();
        } else {
            send(response, 200, Map.of(), answer);
        }
    }

    /**
     * The client's answer to one of our {@code elicitation/create} requests: completes the input request (accept, the
     * values saved for the session where the question allows it) or cancels it (decline, cancel, an error, invalid
     * values); the waiting call, wherever it runs, reads the outcome. An answer to nothing we asked is ignored.
     */
    private void answer(McpSession session, String requestId, JsonNode message) {
        String conversation = ToolCall.conversationId(session);
        String owner = session.ownerId();
        try {
            JsonNode result = message.path("result");
            String action = result.path("action").asText("");
            if (!message.has("error") && action.equals("accept") && asksForASecret(owner, conversation, requestId)) {
                // URL mode: accepting means the user went to the page, whose form completes the request itself
                LOG.info("question sent to the page", "requestId", requestId);
                return;
            }
            if (!message.has("error") && action.equals("accept")) {
                JsonNode content = result.path("content").isObject() ? result.path("content") : Json.object();
                try {
                    tools.inputRequests().submit(owner, conversation, requestId, content, true);
                    LOG.info("question answered", "requestId", requestId);
                    return;
                } catch (InvalidInputException e) {
                    LOG.info("answer refused as invalid: the question is cancelled", "requestId", requestId);
                }
            }
            tools.inputRequests().cancel(owner, conversation, requestId);
            LOG.info("question declined", "requestId", requestId, "action", action);
        } catch (InputRequestNotFoundException e) {
            LOG.info("answer to an unknown question ignored", "requestId", clip(requestId));
        } catch (InputRequestConflictException e) {
            LOG.info("late answer ignored: the question was settled", "requestId", requestId);
        }
    }

    /**
     * A client cancelled one of its tool calls: the questions that call is waiting on are cancelled, so the call (on
     * whichever instance runs it) stops waiting at its next look at the store and ends; nothing is saved.
     */
    private void cancelQuestionsOf(McpSession session, JsonNode callId) {
        if (!(callId.isTextual() || callId.isIntegralNumber())) {
            return;
        }
        String conversation = ToolCall.conversationId(session);
        String prefix = ToolCall.questionPrefix(callId);
        try {
            for (var pending : tools.inputRequests().list(session.ownerId(), conversation, Optional.of(RequestStatus.PENDING))) {
                if (pending.toolCallId().startsWith(prefix)) {
                    try {
                        tools.inputRequests().cancel(session.ownerId(), conversation, pending.toolCallId());
                        LOG.info("question withdrawn: the client cancelled its call", "requestId", pending.toolCallId());
                    } catch (InputRequestConflictException e) {
                        // answered meanwhile: that answer stands
                    }
                }
            }
        } catch (InputRequestNotFoundException e) {
            // the session never asked anything
        } catch (StoreUnavailableException e) {
            LOG.warn("could not withdraw a cancelled call's questions", "cause", String.valueOf(e.getMessage()));
        }
    }

    private boolean asksForASecret(String owner, String conversation, String requestId) {
        return tools.inputRequests().find(owner, conversation, requestId).fields().stream()
                .anyMatch(f -> f.type() == dev.tablewright.tool.FieldType.SECRET);
    }

    // ---- DELETE ----

    private void delete(McpHttpRequest request, String owner, HttpResponseStream response) {
        Optional<McpSession> session = session(request, owner, response);
        if (session.isEmpty()) {
            return;
        }
        sessions.delete(owner, session.get().sessionId());
        LOG.info("session ended", "mcpSessionId", session.get().sessionId());
        send(response, 200, Map.of(), Json.object());
    }

    /** The request's session, usable by {@code owner}; otherwise the 400 or 404 is sent and the answer is empty. */
    private Optional<McpSession> session(McpHttpRequest request, String owner, HttpResponseStream response) {
        String id = request.header(SESSION_HEADER);
        if (id == null || id.isBlank()) {
            send(response, 400, Map.of(), error(null, SERVER_ERROR, "Bad Request: the Mcp-Session-Id header is required (initialize first)"));
            return Optional.empty();
        }
        Optional<McpSession> found = id.length() > 128 ? Optional.empty() : sessions.find(id.strip());
        if (found.isEmpty() || !found.get().usableBy(owner, clock.instant())) {
            // another user's session reads exactly like an unknown one
            send(response, 404, Map.of(), error(null, -32001, "Session not found: initialize a new session"));
            return Optional.empty();
        }
        return found;
    }

    // ---- host, origin, metadata ----

    /** Null when allowed; else why not (DNS rebinding protection). */
    String hostOrOriginRefusal(McpHttpRequest request) {
        String host = request.header("host");
        Set<String> allowedHosts = settings.allowedHosts();
        if (!allowedHosts.isEmpty() && (host == null || !allowedHosts.contains(hostName(host)))) {
            return "Forbidden: Host " + clip(String.valueOf(host)) + " is not allowed";
        }
        String origin = request.header("origin");
        if (origin == null || origin.isBlank()) {
            return null; // not a browser: nothing to rebind
        }
        if (settings.allowedOrigins().contains(origin)) {
            return null;
        }
        try {
            URI uri = URI.create(origin.strip());
            String originHost = uri.getPort() < 0 ? uri.getHost() : uri.getHost() + ":" + uri.getPort();
            if (host != null && originHost != null && originHost.equalsIgnoreCase(host.strip())
                    && (allowedHosts.isEmpty() || allowedHosts.contains(hostName(host)))) {
                return null; // same origin as the endpoint
            }
        } catch (IllegalArgumentException e) {
            // not a URL: refused below
        }
        return "Forbidden: Origin " + clip(origin) + " is not allowed";
    }

    private static String hostName(String hostHeader) {
        String h = hostHeader.strip().toLowerCase(Locale.ROOT);
        if (h.startsWith("[")) {
            int end = h.indexOf(']');
            return end < 0 ? h : h.substring(0, end + 1);
        }
        int colon = h.lastIndexOf(':');
        return colon < 0 ? h : h.substring(0, colon);
    }

    private String resource(McpHttpRequest request) {
        return settings.resourceUrl() != null ? settings.resourceUrl() : request.origin() + PATH;
    }

    private String metadataUrl(McpHttpRequest request) {
        String resource = resource(request);
        URI uri = URI.create(resource);
        return uri.getScheme() + "://" + uri.getRawAuthority() + METADATA_PATH + (uri.getRawPath() == null ? "" : uri.getRawPath());
    }

    /** RFC 9728 protected-resource metadata: this resource, and the issuer that signs its users in. */
    private ObjectNode metadata(McpHttpRequest request) {
        ObjectNode doc = Json.object().put("resource", resource(request));
        doc.putArray("authorization_servers").add(settings.authorizationServer());
        doc.putArray("bearer_methods_supported").add("header");
        doc.putArray("scopes_supported").add("openid").add("email").add("profile");
        doc.put("resource_name", "Tablewright");
        return doc;
    }

    // ---- writing ----

    private static ObjectNode result(JsonNode id, JsonNode result) {
        ObjectNode o = Json.object().put("jsonrpc", "2.0");
        o.set("id", id);
        o.set("result", result);
        return o;
    }

    private static ObjectNode error(JsonNode id, int code, String message) {
        ObjectNode o = Json.object().put("jsonrpc", "2.0");
        o.set("id", id == null ? Json.MAPPER.nullNode() : id);
        o.putObject("error").put("code", code).put("message", message);
        return o;
    }

    private static void accepted(HttpResponseStream response) {
        response.start(202, Map.of());
        response.close();
    }

    private static void send(HttpResponseStream response, int status, Map<String, String> headers, JsonNode body) {
        Map<String, String> all = new LinkedHashMap<>(headers);
        all.put("content-type", "application/json");
        response.start(status, all);
        response.write(Json.write(body).getBytes(StandardCharsets.UTF_8));
        response.flush();
        response.close();
    }

    private static String clip(String value) {
        return value.length() <= 60 ? value : value.substring(0, 60) + "…";
    }
}
