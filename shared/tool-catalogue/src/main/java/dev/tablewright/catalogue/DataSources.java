package dev.tablewright.catalogue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.FieldType;
import dev.tablewright.toolcontract.InputField;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.UserInputRequirement;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Which data source a database tool works on, as its definition says it. With one configured there is nothing to
 * choose. With several the tools that query one declare database selection: a {@code requiresUserInput} select field
 * {@code database} with the names as options, saved for the session (the user-input gate merges the saved value into
 * the arguments). The tools choose with {@code dev.tablewright.tools.DataSourceSelection}.
 */
public final class DataSources {

    public static final String FIELD = "database";

    private DataSources() {
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
            List<String> names = new ArrayList<>();
            root.fieldNames().forEachRemaining(names::add);
            return names.isEmpty() ? List.of("default") : names;
        } catch (IOException e) {
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
        return base.asking(parameters, requirement(names));
    }
}
