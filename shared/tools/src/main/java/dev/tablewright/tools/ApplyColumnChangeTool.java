package dev.tablewright.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.operations.ColumnChange;
import dev.tablewright.operations.ColumnSpec;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.schema.SchemaCatalogs;
import dev.tablewright.tool.ToolDefinition;

import java.util.List;
import java.util.Set;

/** {@code apply_column_change}: add or remove columns of a table config. */
public final class ApplyColumnChangeTool extends ChangeTool<ColumnChange.Operation, List<ColumnSpec>> {

    public static final ToolDefinition DEFINITION = new ToolDefinition("apply_column_change",
            "Add, remove or update columns of a table config, one validated step. Adding puts each column in both "
                    + "select.columns and visual_settings.columns, maps its PostgreSQL type to a visual type, gives dates and "
                    + "times a default format and the next display order. Removing takes a column out of both, with the "
                    + "filters and sorts on it. Updating changes a selected column's header, format, hidden flag or type. Columns of a joined table need the join first (apply_join_change). Returns "
                    + "{valid, config, errors, warnings, applied}: if valid, pass config to preview_table_config; if not, "
                    + "fix the fields the errors name and call again.",
            schema(), null, Set.of("tables"), ToolDefinition.RunsOn.FUNCTION).onADataSource();

    public ApplyColumnChangeTool() {
        this((SchemaCatalog) null);
    }

    /** @param catalog live schema for grounding; null runs ungrounded (answers carry a warning) */
    public ApplyColumnChangeTool(SchemaCatalog catalog) {
        this(SchemaCatalogs.of(catalog));
    }

    /** @param catalogs live schema per data source: names are grounded against the conversation's chosen one */
    public ApplyColumnChangeTool(SchemaCatalogs catalogs) {
        super(ColumnChange.Operation.class, args -> ArgumentSchemas.readColumns(args, "columns", true), catalog -> new ColumnChange(catalog)::apply, catalogs);
    }

    private static ObjectNode schema() {
        ObjectNode s = ArgumentSchemas.object("config", "operation", "columns");
        ObjectNode p = ArgumentSchemas.props(s);
        ArgumentSchemas.config(p);
        ArgumentSchemas.operation(p, "add, remove, or update (header, format, hidden, pg_type of selected columns)", "add", "remove", "update");
        ObjectNode cols = p.putObject("columns");
        cols.put("type", "array").put("minItems", 1).put("maxItems", ArgumentSchemas.MAX_COLUMNS)
                .put("description", "The columns to add, remove or update.");
        cols.set("items", ArgumentSchemas.column());
        return s;
    }

    @Override
    public ToolDefinition definition() {
        return DEFINITION;
    }
}
