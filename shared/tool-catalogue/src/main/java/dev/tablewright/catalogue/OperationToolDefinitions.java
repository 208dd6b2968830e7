package dev.tablewright.catalogue;

import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolDefinition.Audience;
import dev.tablewright.toolcontract.ToolDefinition.RunsOn;

import java.util.Set;

/**
 * The operation tools ({@code functions/tools}): each answers a changed copy of the config it is given, validated and
 * grounded in the chosen data source's catalogue; they change nothing anywhere. And the static type reference.
 */
public final class OperationToolDefinitions {

    /** The most columns one call names (the schema says so; the tools' readers hold calls to it). */
    public static final int MAX_COLUMNS = 100;

    public static final ToolDefinition APPLY_COLUMN_CHANGE = new ToolDefinition("apply_column_change",
            "Add, remove or update columns of a table config, one validated step. Adding puts each column in both "
                    + "select.columns and visual_settings.columns, maps its PostgreSQL type to a visual type, gives dates and "
                    + "times a default format and the next display order. Removing takes a column out of both, with the "
                    + "filters and sorts on it. Updating changes a selected column's header, format, hidden flag or type. Columns of a joined table need the join first (apply_join_change). Returns "
                    + "{valid, config, errors, warnings, applied}: if valid, pass config to preview_table_config; if not, "
                    + "fix the fields the errors name and call again.",
            ArgumentSchemas.columnChange(), null, Set.of("tables"), RunsOn.FUNCTION)
            .onADataSource().titled("Change columns").readOnly().answering(OutputSchemas.OPERATION_RESULT).on(Audience.AGENT, Audience.MCP_HOST);

    public static final ToolDefinition APPLY_FILTER_CHANGE = new ToolDefinition("apply_filter_change",
            "Add or remove a filter of a table config, one validated step. A filter column that is not selected is "
                    + "added as a hidden column first (reported in applied). The operator must suit the column's visual "
                    + "type (discover_table_reference lists them: e.g. contains only for strings, between for numbers and "
                    + "dates). Adding a filter with the same column and operator replaces it. Removing drops the filters on "
                    + "the column (only those with the operator, if given) and keeps the column. Returns {valid, config, "
                    + "errors, warnings, applied}: if valid, pass config to preview_table_config.",
            ArgumentSchemas.filterChange(), null, Set.of("tables"), RunsOn.FUNCTION)
            .onADataSource().titled("Change filters").readOnly().answering(OutputSchemas.OPERATION_RESULT).on(Audience.AGENT, Audience.MCP_HOST);

    public static final ToolDefinition APPLY_JOIN_CHANGE = new ToolDefinition("apply_join_change",
            "Join another table into a table config, or remove a join, one validated step. Adding builds the "
                    + "foreign_tables entry from relationship_from (<base table or alias>.<column>) and relationship_to "
                    + "(<table>.<column>); when the same table is joined twice the new join gets its own alias (e.g. "
                    + "users_approved_by for orders.approved_by). columns_to_add selects columns of the joined table at once. "
                    + "Removing a join also removes its columns and the filters and sorts on them (reported in applied). Use "
                    + "search_database_schema first to find the relationship. Returns {valid, config, errors, warnings, applied}.",
            ArgumentSchemas.joinChange(), null, Set.of(), RunsOn.FUNCTION)
            .onADataSource().titled("Change joins").readOnly().answering(OutputSchemas.OPERATION_RESULT).on(Audience.AGENT, Audience.MCP_HOST);

    public static final ToolDefinition APPLY_SORT_CHANGE = new ToolDefinition("apply_sort_change",
            "Change how a table config is sorted, one validated step. add appends sort columns (or changes the "
                    + "direction of one already sorted), remove drops the given columns from the sort, set replaces the whole "
                    + "sort in the given order (an empty list clears it). A sort column that is not selected is added as a "
                    + "hidden column. Returns {valid, config, errors, warnings, applied}: if valid, pass config to preview_table_config.",
            ArgumentSchemas.sortChange(), null, Set.of(), RunsOn.FUNCTION)
            .onADataSource().titled("Change sorting").readOnly().answering(OutputSchemas.OPERATION_RESULT).on(Audience.AGENT, Audience.MCP_HOST);

    public static final ToolDefinition VALIDATE_TABLE_CONFIG = new ToolDefinition("validate_table_config",
            "Check a table config without changing it: every invariant (base table, select.columns and "
                    + "visual_settings.columns in sync, unique result keys, all-or-nothing ordering, formats for dates, "
                    + "filter and sort columns selected with operators that suit their types, joins with unique aliases "
                    + "and valid relationships, plain SQL identifiers) and, when connected, that every table and column "
                    + "exists. Returns {valid, config, errors, warnings, applied: []}; each error names its field. Use it "
                    + "before preview_table_config on a config you edited by hand.",
            ArgumentSchemas.validation(), null, Set.of(), RunsOn.FUNCTION)
            .onADataSource().titled("Validate a table config").asLookup().answering(OutputSchemas.OPERATION_RESULT).on(Audience.AGENT, Audience.MCP_HOST);

    public static final ToolDefinition DISCOVER_TABLE_REFERENCE = new ToolDefinition("discover_table_reference",
            "The table builder's reference: which visual type each PostgreSQL type shows as (number, string, "
                    + "boolean, date, datetime, time, uuid, json, array, enum), the format options of each visual type "
                    + "(date and datetime need one), which filter operators each visual type allows and what value each "
                    + "operator takes, and the rules a config must keep. Pass pg_types to map specific types.",
            ArgumentSchemas.reference(), null, Set.of("tables"), RunsOn.FUNCTION)
            .titled("Table config reference").asLookup().on(Audience.AGENT, Audience.MCP_HOST);

    private OperationToolDefinitions() {
    }
}
