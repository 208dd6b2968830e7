package dev.tablewright.catalogue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolDefinition.Access;
import dev.tablewright.toolcontract.ToolDefinition.Audience;
import dev.tablewright.toolcontract.ToolDefinition.RunsOn;

import java.util.Set;

/**
 * The tools that read a database ({@code functions/configs}). Written without the {@code database} selection: where
 * several data sources are configured, {@link ToolCatalogue#registry(java.util.List)} declares it
 * ({@link DataSources#declare}), so a door asks first (and so does the tool itself).
 */
public final class DatabaseToolDefinitions {

    private static final ObjectNode SEARCH_PARAMETERS = Json.objectLiteral("""
                {"type": "object", "additionalProperties": false, "properties": {
                  "schema": {"type": "string", "description": "Only this schema"},
                  "table": {"type": "string", "description": "Describe exactly this table (with schema): all columns and relationships"},
                  "name": {"type": "string", "description": "A fragment of a table or column name (case-insensitive)"},
                  "include_columns": {"type": "boolean", "description": "List each table's columns (default false; true when one table is described)"},
                  "page": {"type": "integer", "minimum": 1, "description": "Page number, from 1"},
                  "page_size": {"type": "integer", "minimum": 1, "maximum": 50, "description": "Tables per page (default 20; at most 10 with columns)"}
                }}""");

    private static final ObjectNode PREVIEW_PARAMETERS = Json.objectLiteral("""
                {"type": "object", "required": ["config"], "additionalProperties": false, "properties": {
                  "config": {"type": "object", "description": "The complete proposed table config (Config wire format); its id names the saved config it changes, none for a new one"},
                  "description": {"type": "string", "description": "What the change does, in the user's words, shown on the preview card"}
                }}""");

    /**
     * The MCP App view of a preview (served by the MCP door): the diff, the headers and sample rows, Keep and Discard
     * ({@link PreviewDecisionDefinitions#KEEP_PREVIEW}, {@link PreviewDecisionDefinitions#DISCARD_PREVIEW}).
     */
    public static final String PREVIEW_VIEW = "ui://tablewright/preview";

    public static final ToolDefinition SEARCH_DATABASE_SCHEMA = new ToolDefinition("search_database_schema",
            "Search the live database schema: schemas, tables (with their relationships to other tables, both ways) "
                    + "and, on request, columns (PostgreSQL type, nullable, primary key, default, enum). Use it before "
                    + "adding a column, a join or a filter to learn the real names; never guess a name. Filter by schema "
                    + "and by a name fragment; describe one table with schema + table. Results come a page at a time.",
            SEARCH_PARAMETERS, null, Set.of("tables"), RunsOn.FUNCTION)
            .queryingADataSource().titled("Search the database schema").asLookup().on(Audience.AGENT, Audience.MCP_HOST);

    public static final ToolDefinition PREVIEW_TABLE_CONFIG = new ToolDefinition("preview_table_config",
            "Show the user a proposed table config before it is saved: validates it, checks every table, column and "
                    + "join against the live database, plans and runs its SQL on a few rows, and answers the SQL, sample "
                    + "rows, what changes against the saved config, and a previewId. The user then accepts or rejects "
                    + "it. Call it with a config that came from an operation tool or get_table_config; one logical "
                    + "change per preview.",
            PREVIEW_PARAMETERS, null, Set.of("tables"), RunsOn.FUNCTION)
            .queryingADataSource().titled("Preview a table config").changing(Access.WRITES) // it stores a pending preview
            .answering(OutputSchemas.PREVIEW_RESULT).on(Audience.AGENT, Audience.MCP_HOST).shownIn(PREVIEW_VIEW);

    private DatabaseToolDefinitions() {
    }
}
