package dev.tablewright.tools;

import dev.tablewright.catalogue.OperationToolDefinitions;
import dev.tablewright.operations.JoinChange;
import dev.tablewright.operations.JoinSpec;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.schema.SchemaCatalogs;
import dev.tablewright.toolcontract.ToolDefinition;


/** {@code apply_join_change}: add or remove a joined table of a table config. */
public final class ApplyJoinChangeTool extends ChangeTool<JoinChange.Operation, JoinSpec> {

    public ApplyJoinChangeTool() {
        this((SchemaCatalog) null);
    }

    /** @param catalog live schema for grounding; null runs ungrounded (answers carry a warning) */
    public ApplyJoinChangeTool(SchemaCatalog catalog) {
        this(SchemaCatalogs.of(catalog));
    }

    /** @param catalogs live schema per data source: names are grounded against the conversation's chosen one */
    public ApplyJoinChangeTool(SchemaCatalogs catalogs) {
        super(JoinChange.Operation.class, ArgumentReaders::readJoin, catalog -> new JoinChange(catalog)::apply, catalogs);
    }

    @Override
    public ToolDefinition definition() {
        return OperationToolDefinitions.APPLY_JOIN_CHANGE;
    }
}
