package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;
import io.modelcontextprotocol.spec.McpSchema;

import java.util.List;
import java.util.Map;

/** Who this server is and what it offers: {@code initialize}'s answer (2025) and {@code server/discover}'s (2026). */
final class ServerInfo {

    static final String INSTRUCTIONS = "Tablewright builds table configs one validated step at a time: search_database_schema to find tables, "
            + "the apply_*_change tools to change a config, validate_table_config, then preview_table_config. "
            + "Only the user can save: accept_preview asks them to confirm.";
    /**
     * How long a client may keep {@code server/discover}'s, {@code tools/list}'s and the resources' answers: they change
     * only with a deployment (the tools, their schemas, the data sources, the MCP Apps views), and they are the same for
     * every user (what they depend on besides, the client's declared capabilities, travels in the request itself).
     */
    static final long LIST_TTL_MS = 300_000;

    private final McpSchema.Implementation implementation;

    ServerInfo() {
        String version = McpEndpoint.class.getPackage().getImplementationVersion();
        this.implementation = new McpSchema.Implementation("tablewright", "Tablewright", version == null ? "0.1.0" : version);
    }

    McpSchema.Implementation implementation() {
        return implementation;
    }

    McpSchema.InitializeResult initializeResult(String agreed) {
        return new McpSchema.InitializeResult(agreed,
                new McpSchema.ServerCapabilities(null, null, null, null,
                        new McpSchema.ServerCapabilities.ResourceCapabilities(false, false), // the MCP Apps views (McpApps)
                        new McpSchema.ServerCapabilities.ToolCapabilities(false),
                        Map.of(McpApps.EXTENSION_ID, Map.of())),
                implementation, INSTRUCTIONS);
    }

    /**
     * {@code server/discover}: every revision served (2026-07-28 per request, the 2025 ones through {@code initialize}),
     * the capabilities (those the router serves a method of) and the instructions; cacheable by anyone.
     */
    ObjectNode discoverResult(List<String> versions, McpMethods methods) {
        ObjectNode result = Json.object();
        ArrayNode supported = result.putArray("supportedVersions");
        versions.forEach(supported::add);
        ObjectNode capabilities = result.putObject("capabilities");
        if (methods.names().contains(McpSchema.METHOD_TOOLS_LIST)) {
            capabilities.putObject("tools");
        }
        if (methods.names().contains(McpSchema.METHOD_RESOURCES_LIST)) {
            capabilities.putObject("resources");
            capabilities.putObject("extensions").putObject(McpApps.EXTENSION_ID); // the views are its only resources
        }
        result.put("instructions", INSTRUCTIONS);
        return cacheable(result);
    }

    /**
     * The caching hints of a result every user may share ({@code server/discover}, {@code tools/list},
     * {@code resources/list}, {@code resources/templates/list}, {@code resources/read} of a view).
     */
    static ObjectNode cacheable(ObjectNode result) {
        return result.put("ttlMs", LIST_TTL_MS).put("cacheScope", "public");
    }
}
