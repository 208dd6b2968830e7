package dev.tablewright.checks.docs.guide;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.config.TableConfig;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.json.Json;
import dev.tablewright.sql.Database;
import dev.tablewright.sql.Databases;
import dev.tablewright.sql.QueryFailure;
import dev.tablewright.sql.SampleRows;
import dev.tablewright.sql.SqlCompiler;
import dev.tablewright.toolcontract.ToolArguments;
import dev.tablewright.toolcontract.ToolError;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.tools.LiveDatabaseTool;
import dev.tablewright.validation.ValidationError;

import java.util.List;

/** {@code count_rows}: how many rows a table config shows, counted on the database, up to 1000. */
public final class CountRowsTool extends LiveDatabaseTool {

    public CountRowsTool(Databases databases) {
        super(DatabaseToolDefinitions.COUNT_ROWS, databases); // which database: asked for when there are several, refused when unknown
    }

    @Override
    protected ToolOutcome answer(Database database, ToolInvocation invocation) {
        ToolArguments args = ToolArguments.of(invocation);
        TableConfig config = args.config("config");
        if (!args.ok()) {
            return invalid(args.errors());
        }
        // a table, column or join the database does not have: the errors name the config's field
        SqlCompiler.Compilation compiled = SqlCompiler.compile(config, database.catalog(), SqlCompiler.MAX_ROW_LIMIT);
        if (!compiled.ok()) {
            return invalid(compiled.errors());
        }
        try {
            SampleRows rows = database.runner().planAndSample(compiled.query()).sample();
            ObjectNode out = Json.object().put("database", database.name()).put("count", rows.rows().size());
            return ToolOutcome.ok(out.put("more", rows.more()));
        } catch (QueryFailure f) {
            boolean retry = f.kind() == QueryFailure.Kind.UNAVAILABLE || f.kind() == QueryFailure.Kind.TIMEOUT;
            return ToolOutcome.error(retry ? ErrorCode.UNAVAILABLE : ErrorCode.INVALID_ARGUMENTS, f.getMessage());
        }
    }

    private static ToolOutcome invalid(List<ValidationError> errors) {
        return ToolOutcome.error(new ToolError(ErrorCode.INVALID_ARGUMENTS, errors.get(0).field() + ": " + errors.get(0).message(), errors));
    }
}
