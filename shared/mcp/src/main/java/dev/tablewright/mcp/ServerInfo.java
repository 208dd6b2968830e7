package dev.tablewright.mcp;

import io.modelcontextprotocol.spec.McpSchema;

import java.util.Map;

/** Who this server is and what it offers, as {@code initialize} answers it. */
final class ServerInfo {

    static final String INSTRUCTIONS = "Tablewright builds table configs one validated step at a time: search_database_schema to find tables, "
            + "the apply_*_change tools to change a config, validate_table_config, then preview_table_config. "
            + "Only the user can save: accept_preview asks them to confirm.";

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
}
