package dev.tablewright.functions.mcp;

import dev.tablewright.lambda.Settings;
import dev.tablewright.mcp.McpSettings;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The MCP function's own variables, read once at init: {@code MCP_RESOURCE_URL} (the endpoint's public URL when it
 * is not the function URL's host, e.g. behind a custom domain), {@code MCP_ALLOWED_HOSTS} and
 * {@code MCP_ALLOWED_ORIGINS} (comma-separated), {@code MCP_SESSION_TTL_HOURS} (default 24),
 * {@code MCP_ELICITATION_WAIT_SECONDS} (default 120), {@code MCP_PAGE_URL} (the reference page, for URL-mode
 * questions), {@code AUTH_ISSUER} (named as the authorization server), the input requests' lifetime
 * ({@code INPUT_REQUEST_TTL_HOURS}, which bounds a 2026-07-28 {@code requestState}; the lifecycle's own lifetimes are
 * read with the tools' settings, {@code ToolSettings}; its tables are the door's stores', {@code DoorStores}). A value
 * that cannot be used stops the function at init with the variable's name.
 */
public record McpFunctionSettings(McpSettings mcp) {

    public static McpFunctionSettings fromEnvironment(Map<String, String> env) {
        McpSettings mcp = new McpSettings(env.get("AUTH_ISSUER"), blankToNull(env.get("MCP_RESOURCE_URL")),
                list(env.get("MCP_ALLOWED_HOSTS")), list(env.get("MCP_ALLOWED_ORIGINS")),
                Duration.ofHours(Settings.positive("MCP_SESSION_TTL_HOURS", env.get("MCP_SESSION_TTL_HOURS"), 24)),
                Duration.ofSeconds(Settings.positive("MCP_ELICITATION_WAIT_SECONDS", env.get("MCP_ELICITATION_WAIT_SECONDS"), 120)),
                null, blankToNull(env.get("MCP_PAGE_URL")), Settings.inputRequestExpiry(env).requestTtl());
        return new McpFunctionSettings(mcp);
    }

    private static Set<String> list(String value) {
        Set<String> out = new LinkedHashSet<>();
        if (value != null) {
            for (String part : value.split(",")) {
                if (!part.isBlank()) {
                    out.add(part.strip());
                }
            }
        }
        return out;
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
