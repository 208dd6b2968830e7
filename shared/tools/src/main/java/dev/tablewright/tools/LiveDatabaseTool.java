package dev.tablewright.tools;

import dev.tablewright.catalogue.DataSources;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.failure.DomainFailure;
import dev.tablewright.json.Json;
import dev.tablewright.sql.Database;
import dev.tablewright.sql.Databases;
import dev.tablewright.toolcontract.Tool;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolFailures;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;

/**
 * A tool that reads one of the configured databases. What every such tool does before its own work is here once:
 * its definition declares the choice of database where there are several ({@link DataSources#declare}); a
 * call answers {@code needs_input} while none is chosen and {@code invalid_arguments} for a name that is not
 * configured ({@link DataSourceSelection#choose}); and the failures of the catalogue and the stores (a
 * {@link DomainFailure}: the database unreachable, a store unavailable, a value too large) are answered as tool
 * errors instead of escaping. A subclass says only what it does with the chosen database ({@link #answer}).
 */
public abstract class LiveDatabaseTool implements Tool {

    private final Databases databases;
    private final ToolDefinition definition;

    /** @param definition the tool's definition without the {@code database} selection (it is declared here when needed) */
    protected LiveDatabaseTool(ToolDefinition definition, Databases databases) {
        this.databases = databases;
        this.definition = DataSources.declare(definition, databases.names());
    }

    /** The tool's answer on the chosen database; never throws for bad input (answer an error outcome). */
    protected abstract ToolOutcome answer(Database database, ToolInvocation invocation);

    @Override
    public final ToolDefinition definition() {
        return definition;
    }

    @Override
    public final ToolOutcome execute(ToolInvocation invocation) {
        try {
            return switch (DataSourceSelection.choose(invocation, databases)) {
                case DataSourceSelection.Chosen chosen -> answer(chosen.database(), invocation);
                case DataSourceSelection.Answer instead -> instead.outcome();
            };
        } catch (DomainFailure e) {
            return ToolFailures.outcome(e);
        }
    }

    /** The invocation's arguments, an empty object when it has none. */
    protected static JsonNode arguments(ToolInvocation invocation) {
        return invocation.arguments() == null ? Json.object() : invocation.arguments();
    }
}
