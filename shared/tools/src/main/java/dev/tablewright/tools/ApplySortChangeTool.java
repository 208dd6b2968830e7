package dev.tablewright.tools;

import dev.tablewright.catalogue.OperationToolDefinitions;
import dev.tablewright.operations.SortChange;
import dev.tablewright.operations.SortSpec;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.schema.SchemaCatalogs;
import dev.tablewright.toolcontract.ToolDefinition;

import java.util.List;

/** {@code apply_sort_change}: add, remove or set the sort of a table config. */
public final class ApplySortChangeTool extends ChangeTool<SortChange.Operation, List<SortSpec>> {

    public ApplySortChangeTool() {
        this((SchemaCatalog) null);
    }

    /** @param catalog live schema for grounding; null runs ungrounded (answers carry a warning) */
    public ApplySortChangeTool(SchemaCatalog catalog) {
        this(SchemaCatalogs.of(catalog));
    }

    /** @param catalogs live schema per data source: names are grounded against the conversation's chosen one */
    public ApplySortChangeTool(SchemaCatalogs catalogs) {
        super(SortChange.Operation.class, ArgumentReaders::readSort, catalog -> new SortChange(catalog)::apply, catalogs);
    }

    @Override
    public ToolDefinition definition() {
        return OperationToolDefinitions.APPLY_SORT_CHANGE;
    }
}
