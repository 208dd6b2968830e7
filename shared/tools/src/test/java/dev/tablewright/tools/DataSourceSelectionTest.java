package dev.tablewright.tools;

import dev.tablewright.tool.ToolDefinition;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DataSourceSelectionTest {

    @Test
    void namesComeFromDataSourcesKeysWithoutReadingCredentials() {
        assertEquals(List.of("default"), DataSourceSelection.namesOf(null));
        assertEquals(List.of("production", "staging"), DataSourceSelection.namesOf(
                "{\"production\": {\"secret\": \"arn:x\"}, \"staging\": {\"url\": \"postgres://u:p@h/db\"}}"));
        assertEquals(List.of("default"), DataSourceSelection.namesOf("not json"));
    }

    @Test
    void severalNamesDeclareASavedSelectField() {
        ToolDefinition base = SearchDatabaseSchemaTool.DEFINITION;
        assertNull(base.requiresUserInput(), "the definition itself declares no selection");
        assertSame(base, DataSourceSelection.declare(base, List.of("default")));
        ToolDefinition two = DataSourceSelection.declare(base, List.of("production", "staging"));
        assertTrue(two.requiresUserInput().saveForSession());
        assertEquals(List.of("production", "staging"), two.requiresUserInput().fields().get(0).options());
        assertEquals("string", two.parameters().path("properties").path("database").path("type").asText());
        assertTrue(base.parameters().path("properties").path("database").isMissingNode(), "the base is not changed");
        assertTrue(two.worksOnDataSource(), "declaring the selection keeps what the tool is");
    }

    @Test
    void whetherAToolWorksOnADataSourceIsPartOfItsDefinition() {
        List<String> onADataSource = ToolBundle.registry().all().stream().filter(ToolDefinition::worksOnDataSource)
                .map(ToolDefinition::name).sorted().toList();
        assertEquals(List.of("apply_column_change", "apply_filter_change", "apply_join_change", "apply_sort_change",
                "preview_table_config", "search_database_schema", "validate_table_config"), onADataSource);
    }
}
