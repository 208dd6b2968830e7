package dev.tablewright.catalogue;

import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolDefinition.DataSourceUse;
import dev.tablewright.toolcontract.ToolRegistry;

import java.util.List;

/**
 * Every tool's definition, listed once, in the order docs/tools.md lists them: what it is called, takes and answers,
 * its title, what it changes, which doors offer it (the chat, MCP, an MCP App's view), the view that shows its answer,
 * whether the user approves each call, whether it works on a data source and where it runs. The doors read it (the chat's prompt, tool list and catalogue search;
 * MCP's {@code tools/list}), and so do docs/tools.md and the template's function list (checked by tests); no door
 * lists a tool of its own. Definitions only: the implementations are elsewhere ({@code shared/tools} for the tools
 * that run as functions, the agent for its own, the MCP door for the preview decisions).
 *
 * <p>To add a tool: write its definition beside those of its kind and add it to {@link #DEFINITIONS}.
 */
public final class ToolCatalogue {

    /** The definitions as declared, before a deployment's data sources are known. */
    public static final List<ToolDefinition> DEFINITIONS = List.of(
            // operation tools (functions/tools)
            OperationToolDefinitions.APPLY_COLUMN_CHANGE,
            OperationToolDefinitions.APPLY_FILTER_CHANGE,
            OperationToolDefinitions.APPLY_JOIN_CHANGE,
            OperationToolDefinitions.APPLY_SORT_CHANGE,
            OperationToolDefinitions.VALIDATE_TABLE_CONFIG,
            OperationToolDefinitions.DISCOVER_TABLE_REFERENCE,
            // database tools, config store, previews (functions/configs)
            DatabaseToolDefinitions.SEARCH_DATABASE_SCHEMA,
            DatabaseToolDefinitions.PREVIEW_TABLE_CONFIG,
            ConfigStoreToolDefinitions.GET_TABLE_CONFIG,
            ConfigStoreToolDefinitions.LIST_TABLE_CONFIGS,
            ConfigStoreToolDefinitions.CREATE_TABLE_CONFIG,
            ConfigStoreToolDefinitions.UPDATE_TABLE_CONFIG,
            // the agent's own tools (run inside the agent)
            AgentToolDefinitions.SEARCH_TOOLS,
            AgentToolDefinitions.UPDATE_EDITABLE_STATUS,
            // the preview decisions (run inside the MCP function)
            PreviewDecisionDefinitions.ACCEPT_PREVIEW,
            PreviewDecisionDefinitions.REJECT_PREVIEW,
            // the preview view's buttons (MCP Apps; run inside the MCP function)
            PreviewDecisionDefinitions.KEEP_PREVIEW,
            PreviewDecisionDefinitions.DISCARD_PREVIEW);

    private ToolCatalogue() {
    }

    /**
     * Every tool for a deployment with these data sources: with several, the tools that query a database declare the
     * {@code database} selection, so a door asks the user before invoking them. A door takes its own with
     * {@link ToolRegistry#offeredOn}.
     */
    public static ToolRegistry registry(List<String> dataSourceNames) {
        return registry(DEFINITIONS, dataSourceNames);
    }

    /** These definitions for a deployment with these data sources (a catalogue with a tool added, in a test). */
    public static ToolRegistry registry(List<ToolDefinition> definitions, List<String> dataSourceNames) {
        return new ToolRegistry(definitions.stream()
                .map(d -> d.dataSource() == DataSourceUse.QUERIES ? DataSources.declare(d, dataSourceNames) : d)
                .toList());
    }

    /** Every tool for one data source: what docs/tools.md documents and the template's functions are checked against. */
    public static ToolRegistry registry() {
        return registry(List.of("default"));
    }
}
