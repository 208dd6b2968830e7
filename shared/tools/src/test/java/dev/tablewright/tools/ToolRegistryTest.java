package dev.tablewright.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.tool.ToolDefinition;
import dev.tablewright.tool.ToolRegistry;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ToolRegistryTest {

    static ToolDefinition tool(String name, String description, Set<String> core, ToolDefinition.RunsOn runsOn, String... args) {
        ObjectNode schema = Json.object().put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        for (String a : args) {
            properties.putObject(a).put("type", "string");
        }
        return new ToolDefinition(name, description, schema, null, core, runsOn);
    }

    static final ToolRegistry REGISTRY = new ToolRegistry(List.of(
            tool("apply_column_change", "Add or remove columns of a table config, keeping select and visual settings in sync.",
                    Set.of("tables"), null, "config", "operation", "columns"),
            tool("apply_filter_change", "Add or remove a filter on a column; the column is added as hidden when needed.",
                    Set.of("tables"), null, "config", "operation", "filter"),
            tool("apply_join_change", "Join another table (foreign table) to the config, or remove a join with its columns.",
                    Set.of(), null, "config", "operation", "join"),
            tool("apply_sort_change", "Add, remove or set the ordering of rows.", Set.of(), null, "config", "operation", "sort"),
            tool("search_tools", "Find less common tools by keywords.", Set.of("tables", "workflows"),
                    ToolDefinition.RunsOn.CHAT, "query")));

    @Test
    void lookupsByNameAndContext() {
        assertEquals("apply_join_change", REGISTRY.get("apply_join_change").name());
        assertTrue(REGISTRY.find("no_such_tool").isEmpty());
        assertTrue(REGISTRY.find(null).isEmpty());
        assertThrows(IllegalArgumentException.class, () -> REGISTRY.get("no_such_tool"));
        assertEquals(List.of("apply_column_change", "apply_filter_change", "search_tools"),
                REGISTRY.coreTools("tables").stream().map(ToolDefinition::name).toList());
        assertEquals(List.of("search_tools"), REGISTRY.coreTools("workflows").stream().map(ToolDefinition::name).toList());
        assertEquals(List.of(), REGISTRY.coreTools("unknown"));
        assertEquals(Set.of("tables", "workflows"), REGISTRY.contexts());
        assertEquals(4, REGISTRY.functionTools().size());
    }

    @Test
    void searchRanksNameHitsFirstAndMatchesWordForms() {
        assertEquals("apply_sort_change", REGISTRY.search("sorting rows", 3).get(0).tool().name());
        assertEquals("apply_join_change", REGISTRY.search("joins with another table", 3).get(0).tool().name());
        assertEquals("apply_join_change", REGISTRY.search("apply_join_change", 3).get(0).tool().name());
        assertEquals("apply_filter_change", REGISTRY.search("FILTER by status", 1).get(0).tool().name());
    }

    @Test
    void searchExcludesAndLimits() {
        List<String> names = REGISTRY.search("change", Set.of("apply_column_change", "apply_filter_change"), 10).stream()
                .map(m -> m.tool().name()).toList();
        assertEquals(List.of("apply_join_change", "apply_sort_change"), names);
        assertEquals(1, REGISTRY.search("change", 1).size());
        assertEquals(List.of(), REGISTRY.search("the and of", 5), "stop words alone match nothing");
        assertEquals(List.of(), REGISTRY.search("", 5));
        assertEquals(List.of(), REGISTRY.search(null, 5));
        assertEquals(List.of(), REGISTRY.search("xylophone", 5));
    }

    @Test
    void refusesDuplicateAndMalformedDefinitions() {
        ToolDefinition a = tool("same_name", "one", Set.of(), null);
        assertThrows(IllegalStateException.class, () -> new ToolRegistry(List.of(a, a)));
        assertThrows(IllegalStateException.class, () -> new ToolRegistry(List.of(tool("Bad-Name", "x", Set.of(), null))));
        assertThrows(IllegalStateException.class, () -> new ToolRegistry(List.of(tool("no_description", " ", Set.of(), null))));
        assertThrows(IllegalStateException.class, () -> new ToolRegistry(java.util.Arrays.asList((ToolDefinition) null)));
    }

    @Test
    void theBundleSendsTheCommonOperationToolsAsCoreToolsAndFindsTheOthers() {
        List<String> core = ToolBundle.registry().coreTools("tables").stream().map(ToolDefinition::name).toList();
        assertTrue(core.containsAll(List.of("apply_column_change", "apply_filter_change", "discover_table_reference")), core.toString());
        assertTrue(!core.contains("apply_join_change") && !core.contains("apply_sort_change"), "join and sort are discoverable");
        Set<String> sent = Set.copyOf(core);
        assertEquals("apply_sort_change", ToolBundle.registry().search("sort the rows by date", sent, 3).get(0).tool().name());
        assertEquals("apply_join_change", ToolBundle.registry().search("join the warehouses table", sent, 3).get(0).tool().name());
        assertEquals("validate_table_config", ToolBundle.registry().search("validate", sent, 3).get(0).tool().name());
    }

    @Test
    void theBundleIsConsistent() {
        // Constructing the registry checks names, duplicates and descriptions; every tool must also have an object schema.
        for (ToolDefinition t : ToolBundle.registry().all()) {
            assertEquals("object", t.parameters().path("type").asText(), t.name() + " parameters must be an object schema");
        }
    }

    @Test
    void severalDataSourcesMakeTheDatabaseToolsAskWhichOne() {
        ToolRegistry one = ToolBundle.registry();
        ToolRegistry two = ToolBundle.registry(List.of("production", "staging"));
        for (String name : List.of("search_database_schema", "preview_table_config")) {
            assertEquals(null, one.get(name).requiresUserInput(), name);
            assertEquals(List.of("production", "staging"), two.get(name).requiresUserInput().fields().get(0).options(), name);
        }
        assertEquals(one.get("apply_column_change"), two.get("apply_column_change"), "the other tools are the same");
    }
}
