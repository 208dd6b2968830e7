package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The 2026-07-28 revision's requests: each one stands alone (no session, no {@code initialize}); its version, the
 * client's capabilities and identity travel in its {@code params._meta}. Checked in the spec's order before any method
 * runs, each refusal a 400 with the spec's error and the request's id: the {@code _meta} (-32602), the
 * {@code MCP-Protocol-Version}, {@code Mcp-Method} and {@code Mcp-Name} headers against the body ({@code HeaderMismatch},
 * -32020), the version ({@code UnsupportedProtocolVersion}, -32022, naming the versions served). A method this era
 * does not serve (among them those the revision removed: {@code initialize}, {@code ping}, ...) is a 404 with -32601.
 * Every result carries {@code resultType} and the server's identity in {@code _meta}.
 */
final class StatelessRequests {

    static final String REVISION = "2026-07-28";
    static final String PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
    static final String CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
    static final String CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
    static final String SERVER_INFO = "io.modelcontextprotocol/serverInfo";
    static final int HEADER_MISMATCH = -32020;
    static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;
    static final String METHOD_HEADER = "Mcp-Method";
    static final String NAME_HEADER = "Mcp-Name";
    /** The methods whose {@code params.name} (or {@code params.uri}) the {@code Mcp-Name} header mirrors. */
    private static final Set<String> NAMED_METHODS = Set.of("tools/call", "resources/read", "prompts/get");
    private static final String BASE64_PREFIX = "=?base64?";
    private static final String BASE64_SUFFIX = "?=";
    private static final StructuredLog LOG = StructuredLog.of(StatelessRequests.class);

    private final ObjectNode serverInfo;
    /** Every revision served, newest first: 2026-07-28 here, the 2025 ones through {@code initialize}. */
    private final List<String> supported;
    /** This era's router: its methods' results pass through {@link #identified}. */
    private final McpMethods methods;

    StatelessRequests(ServerInfo server, List<String> supported) {
        this.serverInfo = Json.MAPPER.valueToTree(server.implementation());
        this.supported = supported;
        this.methods = new McpMethods(this::identified);
    }

    McpMethods methods() {
        return methods;
    }

    /** Whether a message is of this era: its {@code _meta} names a protocol version. */
    static boolean carriesVersion(JsonRpc.Message message) {
        JsonNode meta = message.params().path("_meta");
        return meta.isObject() && meta.has(PROTOCOL_VERSION);
    }

    void serve(McpHttpRequest request, String owner, JsonRpc.Message message, HttpResponseStream response,
               Optional<Instant> deadline) {
        JsonNode id = message.id();
        if (message.method() == null) {
            refuse(response, 400, JsonRpc.error(null, JsonRpc.INVALID_REQUEST,
                    "Invalid request: a 2026-07-28 client sends requests and notifications, never responses"));
            return;
        }
        if (!message.hasId()) {
            JsonRpc.accepted(response); // no notification of this revision needs an answer over HTTP
            return;
        }
        JsonNode meta = message.params().path("_meta");
        JsonNode version = meta.path(PROTOCOL_VERSION);
        if (!version.isTextual()) {
            refuse(response, 400, JsonRpc.error(id, JsonRpc.INVALID_PARAMS,
                    "Invalid params: _meta[\"" + PROTOCOL_VERSION + "\"] must be a string"));
            return;
        }
        String header = headerValue(request, McpEndpoint.VERSION_HEADER);
        if (header == null || !header.equals(version.textValue())) {
            refuse(response, 400, JsonRpc.error(id, HEADER_MISMATCH, header == null
                    ? "Header mismatch: the MCP-Protocol-Version header is required"
                    : "Header mismatch: MCP-Protocol-Version header value '" + JsonRpc.clip(header)
                    + "' does not match body value '" + JsonRpc.clip(version.textValue()) + "'"));
            return;
        }
        if (!REVISION.equals(version.textValue())) {
            ObjectNode error = JsonRpc.error(id, UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version: "
                    + JsonRpc.clip(version.textValue()) + " (supported: " + String.join(", ", supported)
                    + "; the 2025 revisions through initialize and a session)");
            ObjectNode data = ((ObjectNode) error.get("error")).putObject("data");
            supported.forEach(data.putArray("supported")::add);
            data.put("requested", version.textValue());
            refuse(response, 400, error);
            return;
        }
        JsonNode capabilities = meta.path(CLIENT_CAPABILITIES);
        if (!capabilities.isObject()) {
            refuse(response, 400, JsonRpc.error(id, JsonRpc.INVALID_PARAMS,
                    "Invalid params: _meta[\"" + CLIENT_CAPABILITIES + "\"] must be an object"));
            return;
        }
        String mismatch = headerMismatch(request, message);
        if (mismatch != null) {
            refuse(response, 400, JsonRpc.error(id, HEADER_MISMATCH, mismatch));
            return;
        }
        if (!methods.names().contains(message.method())) {
            JsonRpc.send(response, 404, Map.of(), JsonRpc.error(id, JsonRpc.METHOD_NOT_FOUND,
                    "Method not found: " + JsonRpc.clip(message.method()) + " (2026-07-28)"));
            methods.measured(message.method(), System.nanoTime(), true);
            return;
        }
        McpCaller caller = new McpCaller(owner, REVISION, capabilities, McpCaller.STATELESS_CONVERSATION);
        methods.route(new McpRequest(caller, id, message.method(), message.params(), deadline), response);
    }

    /** Null when {@code Mcp-Method} and (for a named method) {@code Mcp-Name} mirror the body; else the mismatch. */
    private static String headerMismatch(McpHttpRequest request, JsonRpc.Message message) {
        String method = headerValue(request, METHOD_HEADER);
        if (method == null) {
            return "Header mismatch: the Mcp-Method header is required";
        }
        if (!method.equals(message.method())) {
            return "Header mismatch: Mcp-Method header value '" + JsonRpc.clip(method) + "' does not match body value '"
                    + JsonRpc.clip(message.method()) + "'";
        }
        if (!NAMED_METHODS.contains(message.method())) {
            return null;
        }
        JsonNode body = message.params().has("name") ? message.params().get("name") : message.params().get("uri");
        if (body == null || !body.isTextual()) {
            return null; // the method itself refuses a request without a name
        }
        String raw = headerValue(request, NAME_HEADER);
        if (raw == null) {
            return "Header mismatch: the Mcp-Name header is required for " + message.method();
        }
        Optional<String> name = decoded(raw);
        if (name.isEmpty()) {
            return "Header mismatch: the Mcp-Name header is not valid (invalid characters or Base64)";
        }
        if (!name.get().equals(body.textValue())) {
            return "Header mismatch: Mcp-Name header value '" + JsonRpc.clip(name.get()) + "' does not match body value '"
                    + JsonRpc.clip(body.textValue()) + "'";
        }
        return null;
    }

    /** A header's value without the optional whitespace around it (RFC 9110 5.5); null when absent. */
    private static String headerValue(McpHttpRequest request, String name) {
        String value = request.header(name);
        return value == null ? null : value.strip();
    }

    /** A mirrored value: plain visible ASCII, or the spec's {@code =?base64?...?=} form of its UTF-8. */
    static Optional<String> decoded(String value) {
        if (value.startsWith(BASE64_PREFIX) && value.endsWith(BASE64_SUFFIX) && value.length() >= BASE64_PREFIX.length() + BASE64_SUFFIX.length()) {
            try {
                byte[] bytes = Base64.getDecoder().decode(value.substring(BASE64_PREFIX.length(), value.length() - BASE64_SUFFIX.length()));
                return Optional.of(new String(bytes, StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 || c > 0x7e) && c != '\t') {
                return Optional.empty();
            }
        }
        return Optional.of(value);
    }

    private void refuse(HttpResponseStream response, int status, ObjectNode error) {
        LOG.info("2026-07-28 request refused", "code", String.valueOf(error.path("error").path("code").asInt()));
        JsonRpc.send(response, status, Map.of(), error);
    }

    /**
     * Every result of this era: {@code resultType} ({@code complete} unless the method said otherwise) and the server's
     * identity in {@code _meta["io.modelcontextprotocol/serverInfo"]} (the router applies it to each result).
     */
    ObjectNode identified(ObjectNode result) {
        if (!result.has("resultType")) {
            result.put("resultType", "complete");
        }
        ObjectNode meta = result.path("_meta").isObject() ? (ObjectNode) result.get("_meta") : result.putObject("_meta");
        meta.set(SERVER_INFO, serverInfo);
        return result;
    }
}
