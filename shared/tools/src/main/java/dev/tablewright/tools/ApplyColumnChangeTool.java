package dev.tablewright.tools;

import dev.tablewright.catalogue.OperationToolDefinitions;
import dev.tablewright.operations.ColumnChange;
import dev.tablewright.operations.ColumnSpec;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.schema.SchemaCatalogs;
import dev.tablewright.toolcontract.ToolDefinition;

import java.util.List;

/** {@code apply_column_change}: add or remove columns of a table config. */
public final class ApplyColumnChangeTool extends ChangeTool<ColumnChange.Operation, List<ColumnSpec>> {

    public ApplyColumnChangeTool() {
        this((SchemaCatalog) null);
    }

    /** @param catalog live schema for grounding; null runs ungrounded (answers carry a warning) */
    public ApplyColumnChangeTool(SchemaCatalog catalog) {
        this(SchemaCatalogs.of(catalog));
    }

    /** @param catalogs live schema per data source: names are grounded against the conversation's chosen one */
    public ApplyColumnChangeTool(SchemaCatalogs catalogs) {
        super(ColumnChange.Operation.class, args -> ArgumentReaders.readColumns(args, "columns", true), catalog -> new ColumnChange(catalog)::apply, catalogs);
    }

    @Override
    public ToolDefinition definition() {
        return OperationToolDefinitions.APPLY_COLUMN_CHANGE;
    }
}
