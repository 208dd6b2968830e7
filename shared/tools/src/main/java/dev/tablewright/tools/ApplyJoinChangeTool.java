package dev.tablewright.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.operations.JoinChange;
import dev.tablewright.operations.JoinSpec;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.schema.SchemaCatalogs;
import dev.tablewright.tool.ToolDefinition;

import java.util.Set;

/** {@code apply_join_change}: add or remove a joined table of a table config. */
public final class ApplyJoinChangeTool extends ChangeTool<JoinChange.Operation, JoinSpec> {

    public static final ToolDefinition DEFINITION = new ToolDefinition("apply_join_change",
            "Join another table into a table config, or remove a join, one validated step. Adding builds the "
                    + "foreign_tables entry from relationship_from (<base table or alias>.<column>) and relationship_to "
                    + "(<table>.<column>); when the same table is joined twice the new join gets its own alias (e.g. "
                    + "users_approved_by for orders.approved_by). columns_to_add selects columns of the joined table at once. "
                    + "Removing a join also removes its columns and the filters and sorts on them (reported in applied). Use "
                    + "search_database_schema first to find the relationship. Returns {valid, config, errors, warnings, applied}.",
            schema(), null, Set.of(), ToolDefinition.RunsOn.FUNCTION).onADataSource();

    public ApplyJoinChangeTool() {
        this((SchemaCatalog) null);
    }

    /** @param catalog live schema for grounding; null runs ungrounded (answers carry a warning) */
    public ApplyJoinChangeTool(SchemaCatalog catalog) {
        this(SchemaCatalogs.of(catalog));
    }

    /** @param catalogs live schema per data source: names are grounded against the conversation's chosen one */
    public ApplyJoinChangeTool(SchemaCatalogs catalogs) {
        super(JoinChange.Operation.class, ArgumentSchemas::readJoin, catalog -> new JoinChange(catalog)::apply, catalogs);
    }

    private static ObjectNode schema() {
        ObjectNode s = ArgumentSchemas.object("config", "operation", "join");
        ObjectNode p = ArgumentSchemas.props(s);
        ArgumentSchemas.config(p);
        ArgumentSchemas.operation(p, "add or remove", "add", "remove");
        p.set("join", ArgumentSchemas.join());
        return s;
    }

    @Override
    public ToolDefinition definition() {
        return DEFINITION;
    }
}
