package dev.tablewright.checks.docs.guide;

import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolDefinition.Audience;
import dev.tablewright.toolcontract.ToolDefinition.RunsOn;

import java.util.Set;

/**
 * Stands for the catalogue's {@code dev.tablewright.catalogue.DatabaseToolDefinitions} in docs/adding-a-tool.md: the
 * guide shows {@link #COUNT_ROWS} as it is written there, beside the other tools that read a database.
 */
public final class DatabaseToolDefinitions {

    public static final ToolDefinition COUNT_ROWS = new ToolDefinition("count_rows",
            "Count the rows a table config would show, with its filters, up to 1000. Use it when the user asks how many.",
            Json.objectLiteral("""
                    {"type": "object", "required": ["config"], "additionalProperties": false, "properties": {
                      "config": {"type": "object", "description": "The table config to count (Config wire format)"}
                    }}"""),      // JSON Schema of the arguments
            null,                // requiresUserInput: see docs/user-input.md to ask the user for a value
            Set.of("tables"),    // pages where it is a core tool (sent on every turn); else found by search_tools
            RunsOn.FUNCTION)     // its own Lambda, named CountRowsFunction
            .queryingADataSource()   // it reads a database: where several are configured, the doors ask which first
            .titled("Count rows")    // MCP shows a title: without one, the catalogue refuses the tool
            .readOnly()              // it changes nothing (MCP's readOnlyHint); else changing(Access.WRITES)
            .on(Audience.AGENT, Audience.MCP_HOST); // whose models it is offered to

    private DatabaseToolDefinitions() {
    }
}
