package dev.tablewright.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolRegistry;
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
                    ToolDefinition.RunsOn.IN_PROCESS, "query")));

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
}
