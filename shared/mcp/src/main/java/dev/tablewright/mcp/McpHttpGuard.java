package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;

import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * What stands before any JSON-RPC: the paths served, the protected-resource metadata (RFC 9728), the {@code Host}
 * and {@code Origin} check (DNS rebinding protection, 403) and the bearer token (401 with {@code WWW-Authenticate}
 * naming the metadata).
 */
final class McpHttpGuard {

    private static final StructuredLog LOG = StructuredLog.of(McpHttpGuard.class);

    private final McpSettings settings;
    private final Function<String, Optional<String>> callerOf;

    McpHttpGuard(McpSettings settings, Function<String, Optional<String>> callerOf) {
        this.settings = settings;
        this.callerOf = callerOf;
    }

    /**
     * The user a request to {@code /mcp} comes from; empty when the request is answered here already (the metadata,
     * another path, a refused host or origin, no valid token).
     */
    Optional<String> admit(McpHttpRequest request, HttpResponseStream response) {
        String path = request.path();
        if (path.equals(McpEndpoint.METADATA_PATH) || path.equals(McpEndpoint.METADATA_PATH + McpEndpoint.PATH)) {
            if (!request.method().equals("GET")) {
                JsonRpc.send(response, 405, Map.of("allow", "GET"), Json.object().put("error", "method not allowed"));
                return Optional.empty();
            }
            JsonRpc.send(response, 200, Map.of("cache-control", "max-age=3600"), metadata(request));
            return Optional.empty();
        }
        if (!path.equals(McpEndpoint.PATH)) {
            JsonRpc.send(response, 404, Map.of(), Json.object().put("error", "not found"));
            return Optional.empty();
        }
        String refusal = hostOrOriginRefusal(request);
        if (refusal != null) {
            LOG.info("refused by host or origin", "host", String.valueOf(request.header("host")), "origin", String.valueOf(request.header("origin")));
            JsonRpc.send(response, 403, Map.of(), JsonRpc.error(null, JsonRpc.SERVER_ERROR, refusal));
            return Optional.empty();
        }
        Optional<String> owner = callerOf.apply(request.header("authorization"));
        if (owner.isEmpty()) {
            JsonRpc.send(response, 401, Map.of("www-authenticate", "Bearer resource_metadata=\"" + metadataUrl(request) + "\""),
                    JsonRpc.error(null, JsonRpc.SERVER_ERROR, "Unauthorized: sign in and send the access token as a bearer token"));
        }
        return owner;
    }

    /** Null when allowed; else why not (DNS rebinding protection). */
    String hostOrOriginRefusal(McpHttpRequest request) {
        String host = request.header("host");
        Set<String> allowedHosts = settings.allowedHosts();
        if (!allowedHosts.isEmpty() && (host == null || !allowedHosts.contains(hostName(host)))) {
            return "Forbidden: Host " + JsonRpc.clip(String.valueOf(host)) + " is not allowed";
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
        return "Forbidden: Origin " + JsonRpc.clip(origin) + " is not allowed";
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
        return settings.resourceUrl() != null ? settings.resourceUrl() : request.origin() + McpEndpoint.PATH;
    }

    private String metadataUrl(McpHttpRequest request) {
        String resource = resource(request);
        URI uri = URI.create(resource);
        return uri.getScheme() + "://" + uri.getRawAuthority() + McpEndpoint.METADATA_PATH + (uri.getRawPath() == null ? "" : uri.getRawPath());
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
}
