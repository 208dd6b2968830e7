package dev.tablewright.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.catalogue.DataSources;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.sql.Database;
import dev.tablewright.sql.Databases;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;

import java.util.List;
import java.util.Optional;

/**
 * Which database a call works on: the {@code database} argument, else the session's saved choice, else the only one
 * configured; with several and none chosen the call asks ({@code needs_input}). The definitions declare the choice
 * ({@link DataSources}).
 */
public final class DataSourceSelection {

    private DataSourceSelection() {
    }

    /** The chosen database, or the outcome to answer instead (needs_input when several and none chosen). */
    public sealed interface Choice permits Chosen, Answer {
    }

    public record Chosen(Database database) implements Choice {
    }

    public record Answer(ToolOutcome outcome) implements Choice {
    }

    public static Choice choose(ToolInvocation invocation, Databases databases) {
        List<String> names = databases.names();
        String wanted = null;
        JsonNode arg = invocation.arguments() == null ? null : invocation.arguments().get(DataSources.FIELD);
        if (arg != null && arg.isTextual() && !arg.textValue().isBlank()) {
            wanted = arg.textValue();
        } else if (invocation.sessionValues().get(DataSources.FIELD) != null) {
            wanted = invocation.sessionValues().get(DataSources.FIELD);
        }
        if (wanted == null) {
            if (names.size() > 1) {
                return new Answer(ToolOutcome.needsInput(DataSources.requirement(names)));
            }
            wanted = names.get(0);
        }
        Optional<Database> found = databases.find(wanted);
        if (found.isEmpty()) {
            String shown = wanted.length() > 40 ? wanted.substring(0, 40) + "…" : wanted;
            return new Answer(ToolOutcome.error(ErrorCode.INVALID_ARGUMENTS, "database '" + shown + "' is not configured; choose one of "
                    + String.join(", ", names)));
        }
        return new Chosen(found.get());
    }
}
