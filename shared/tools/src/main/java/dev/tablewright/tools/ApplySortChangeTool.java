package dev.tablewright.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.operations.SortChange;
import dev.tablewright.operations.SortSpec;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.schema.SchemaCatalogs;
import dev.tablewright.tool.ToolDefinition;

import java.util.List;
import java.util.Set;

/** {@code apply_sort_change}: add, remove or set the sort of a table config. */
public final class ApplySortChangeTool extends ChangeTool<SortChange.Operation, List<SortSpec>> {

    public static final ToolDefinition DEFINITION = new ToolDefinition("apply_sort_change",
            "Change how a table config is sorted, one validated step. add appends sort columns (or changes the "
                    + "direction of one already sorted), remove drops the given columns from the sort, set replaces the whole "
                    + "sort in the given order (an empty list clears it). A sort column that is not selected is added as a "
                    + "hidden column. Returns {valid, config, errors, warnings, applied}: if valid, pass config to preview_table_config.",
            schema(), null, Set.of(), ToolDefinition.RunsOn.FUNCTION).onADataSource();

    public ApplySortChangeTool() {
        this((SchemaCatalog) null);
    }

    /** @param catalog live schema for grounding; null runs ungrounded (answers carry a warning) */
    public ApplySortChangeTool(SchemaCatalog catalog) {
        this(SchemaCatalogs.of(catalog));
    }

    /** @param catalogs live schema per data source: names are grounded against the conversation's chosen one */
    public ApplySortChangeTool(SchemaCatalogs catalogs) {
        super(SortChange.Operation.class, ArgumentSchemas::readSort, catalog -> new SortChange(catalog)::apply, catalogs);
    }

    private static ObjectNode schema() {
        ObjectNode s = ArgumentSchemas.object("config", "operation", "sort");
        ObjectNode p = ArgumentSchemas.props(s);
        ArgumentSchemas.config(p);
        ArgumentSchemas.operation(p, "add, remove or set", "add", "remove", "set");
        ObjectNode sort = p.putObject("sort");
        sort.put("type", "array").put("description", "Sort entries, first = primary sort.");
        sort.set("items", ArgumentSchemas.sortEntry());
        return s;
    }

    @Override
    public ToolDefinition definition() {
        return DEFINITION;
    }
}
