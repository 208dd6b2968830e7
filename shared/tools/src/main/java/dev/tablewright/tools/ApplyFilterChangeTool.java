package dev.tablewright.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.operations.FilterChange;
import dev.tablewright.operations.FilterSpec;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.schema.SchemaCatalogs;
import dev.tablewright.tool.ToolDefinition;

import java.util.Set;

/** {@code apply_filter_change}: add or remove a filter of a table config. */
public final class ApplyFilterChangeTool extends ChangeTool<FilterChange.Operation, FilterSpec> {

    public static final ToolDefinition DEFINITION = new ToolDefinition("apply_filter_change",
            "Add or remove a filter of a table config, one validated step. A filter column that is not selected is "
                    + "added as a hidden column first (reported in applied). The operator must suit the column's visual "
                    + "type (discover_table_reference lists them: e.g. contains only for strings, between for numbers and "
                    + "dates). Adding a filter with the same column and operator replaces it. Removing drops the filters on "
                    + "the column (only those with the operator, if given) and keeps the column. Returns {valid, config, "
                    + "errors, warnings, applied}: if valid, pass config to preview_table_config.",
            schema(), null, Set.of("tables"), ToolDefinition.RunsOn.FUNCTION).onADataSource();

    public ApplyFilterChangeTool() {
        this((SchemaCatalog) null);
    }

    /** @param catalog live schema for grounding; null runs ungrounded (answers carry a warning) */
    public ApplyFilterChangeTool(SchemaCatalog catalog) {
        this(SchemaCatalogs.of(catalog));
    }

    /** @param catalogs live schema per data source: names are grounded against the conversation's chosen one */
    public ApplyFilterChangeTool(SchemaCatalogs catalogs) {
        super(FilterChange.Operation.class, ArgumentSchemas::readFilter, catalog -> new FilterChange(catalog)::apply, catalogs);
    }

    private static ObjectNode schema() {
        ObjectNode s = ArgumentSchemas.object("config", "operation", "filter");
        ObjectNode p = ArgumentSchemas.props(s);
        ArgumentSchemas.config(p);
        ArgumentSchemas.operation(p, "add or remove", "add", "remove");
        p.set("filter", ArgumentSchemas.filter());
        return s;
    }

    @Override
    public ToolDefinition definition() {
        return DEFINITION;
    }
}
