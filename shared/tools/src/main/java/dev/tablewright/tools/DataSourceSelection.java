package dev.tablewright.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;
import dev.tablewright.sql.Database;
import dev.tablewright.sql.Databases;
import dev.tablewright.tool.FieldType;
import dev.tablewright.tool.InputField;
import dev.tablewright.tool.ToolDefinition;
import dev.tablewright.tool.ToolInvocation;
import dev.tablewright.tool.ToolOutcome;
import dev.tablewright.tool.UserInputRequirement;

import java.util.List;
import java.util.Optional;

/**
 * Which data source a database tool works on. With one configured there is nothing to choose. With several the
 * tools declare database selection: a {@code requiresUserInput} select field {@code database} with the
 * names as options, saved for the session (the user-input gate merges the saved value into the arguments).
 */
public final class DataSourceSelection {

    public static final String FIELD = "database";

    private DataSourceSelection() {
    }

    /**
     * The data source names a {@code DATA_SOURCES} setting configures: its keys, else the single {@code default}.
     * Reads names only (never a URL or secret), so any function can call it, e.g. the chat function to gate the
     * database tools before invoking them.
     */
    public static List<String> namesOf(String sources) {
        if (sources == null) {
            return List.of("default");
        }
        try {
            JsonNode root = Json.parse(sources);
            List<String> names = new java.util.ArrayList<>();
            root.fieldNames().forEachRemaining(names::add);
            return names.isEmpty() ? List.of("default") : names;
        } catch (java.io.IOException e) {
            return List.of("default");
        }
    }

    public static UserInputRequirement requirement(List<String> names) {
        return new UserInputRequirement("Which database should I use?",
                List.of(new InputField(FIELD, "Database", "The data source the table is built over", FieldType.SELECT,
                        true, null, null, null, null, List.copyOf(names), null)),
                true, null);
    }

    /** The definition with the selection declared when there is more than one data source; else unchanged. */
    public static ToolDefinition declare(ToolDefinition base, List<String> names) {
        if (names.size() < 2) {
            return base;
        }
        ObjectNode parameters = base.parameters().deepCopy();
        ObjectNode property = ((ObjectNode) parameters.withObject("/properties")).putObject(FIELD);
        property.put("type", "string");
        property.put("description", "The data source (asked from the user when missing)");
        ArrayNode options = property.putArray("enum");
        names.forEach(options::add);
        return new ToolDefinition(base.name(), base.description(), parameters, requirement(names), base.coreIn(), base.runsOn(),
                base.offeredToModel(), base.worksOnDataSource());
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
        JsonNode arg = invocation.arguments() == null ? null : invocation.arguments().get(FIELD);
        if (arg != null && arg.isTextual() && !arg.textValue().isBlank()) {
            wanted = arg.textValue();
        } else if (invocation.sessionValues().get(FIELD) != null) {
            wanted = invocation.sessionValues().get(FIELD);
        }
        if (wanted == null) {
            if (names.size() > 1) {
                return new Answer(ToolOutcome.needsInput(requirement(names)));
            }
            wanted = names.get(0);
        }
        Optional<Database> found = databases.find(wanted);
        if (found.isEmpty()) {
            String shown = wanted.length() > 40 ? wanted.substring(0, 40) + "…" : wanted;
            return new Answer(ToolOutcome.error("invalid_arguments", "database '" + shown + "' is not configured; choose one of "
                    + String.join(", ", names)));
        }
        return new Chosen(found.get());
    }
}
