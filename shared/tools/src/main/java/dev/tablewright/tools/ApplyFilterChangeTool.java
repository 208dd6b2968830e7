package dev.tablewright.tools;

import dev.tablewright.catalogue.OperationToolDefinitions;
import dev.tablewright.operations.FilterChange;
import dev.tablewright.operations.FilterSpec;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.schema.SchemaCatalogs;
import dev.tablewright.toolcontract.ToolDefinition;


/** {@code apply_filter_change}: add or remove a filter of a table config. */
public final class ApplyFilterChangeTool extends ChangeTool<FilterChange.Operation, FilterSpec> {

    public ApplyFilterChangeTool() {
        this((SchemaCatalog) null);
    }

    /** @param catalog live schema for grounding; null runs ungrounded (answers carry a warning) */
    public ApplyFilterChangeTool(SchemaCatalog catalog) {
        this(SchemaCatalogs.of(catalog));
    }

    /** @param catalogs live schema per data source: names are grounded against the conversation's chosen one */
    public ApplyFilterChangeTool(SchemaCatalogs catalogs) {
        super(FilterChange.Operation.class, ArgumentReaders::readFilter, catalog -> new FilterChange(catalog)::apply, catalogs);
    }

    @Override
    public ToolDefinition definition() {
        return OperationToolDefinitions.APPLY_FILTER_CHANGE;
    }
}
