package dev.tablewright.tools;

import dev.tablewright.tool.ToolDefinition;
import dev.tablewright.tool.ToolRegistry;

import java.util.List;

/**
 * Every tool of the bundle, listed once, in the order docs/tools.md lists them. The prompt's core tools, the
 * catalogue search, docs/tools.md and the template's function list (checked by a test) all come from it.
 *
 * <p>To add a tool: give it a {@code public static final ToolDefinition DEFINITION} and add it to {@link #DEFINITIONS}.
 */
public final class ToolBundle {

    /** The definitions as declared, before a deployment's data sources are known. */
    public static final List<ToolDefinition> DEFINITIONS = List.of(
            // operation tools (functions/tools)
            ApplyColumnChangeTool.DEFINITION,
            ApplyFilterChangeTool.DEFINITION,
            ApplyJoinChangeTool.DEFINITION,
            ApplySortChangeTool.DEFINITION,
            ValidateTableConfigTool.DEFINITION,
            DiscoverTableReferenceTool.DEFINITION,
            // database tools, config store, previews (functions/configs)
            SearchDatabaseSchemaTool.DEFINITION,
            PreviewTableConfigTool.DEFINITION,
            GetTableConfigTool.DEFINITION,
            ListTableConfigsTool.DEFINITION,
            CreateTableConfigTool.DEFINITION,
            UpdateTableConfigTool.DEFINITION,
            // chat-internal tools (run inside the chat function)
            ChatToolDefinitions.SEARCH_TOOLS,
            ChatToolDefinitions.UPDATE_EDITABLE_STATUS);

    private ToolBundle() {
    }

    /**
     * The bundle for a deployment with these data sources: with several, the database tools declare the
     * {@code database} selection, so the chat function asks the user before invoking them.
     */
    public static ToolRegistry registry(List<String> dataSourceNames) {
        return new ToolRegistry(DEFINITIONS.stream()
                .map(d -> d == SearchDatabaseSchemaTool.DEFINITION || d == PreviewTableConfigTool.DEFINITION
                        ? DataSourceSelection.declare(d, dataSourceNames) : d)
                .toList());
    }

    /** The bundle for one data source: what docs/tools.md documents and the template's functions are checked against. */
    public static ToolRegistry registry() {
        return registry(List.of("default"));
    }
}
