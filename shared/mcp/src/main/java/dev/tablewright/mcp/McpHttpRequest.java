package dev.tablewright.mcp;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One HTTP request to the MCP endpoint, whatever carried it (a function URL event, the local gateway).
 *
 * @param headers by name, case-insensitive
 * @param scheme  {@code https} behind a function URL, {@code http} on the local stack
 */
public record McpHttpRequest(String method, String path, Map<String, String> headers, String body, String scheme) {

    public McpHttpRequest {
        TreeMap<String, String> byName = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        if (headers != null) {
            byName.putAll(headers);
        }
        headers = byName;
        method = method == null ? "GET" : method.toUpperCase(Locale.ROOT);
        path = path == null || path.isEmpty() ? "/" : path;
        body = body == null ? "" : body;
        scheme = scheme == null ? "https" : scheme;
    }

    public String header(String name) {
        return headers.get(name);
    }

    /** {@code scheme://host}, as the client addressed this endpoint. */
    public String origin() {
        String host = header("host");
        return scheme + "://" + (host == null ? "localhost" : host);
    }
}
