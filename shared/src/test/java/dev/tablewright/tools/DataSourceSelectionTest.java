package dev.tablewright.tools;

import dev.tablewright.lambda.Env;
import dev.tablewright.tool.ToolDefinition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DataSourceSelectionTest {

    @AfterEach
    void clear() {
        Env.clearOverrides();
    }

    @Test
    void namesComeFromDataSourcesKeysWithoutReadingCredentials() {
        assertEquals(List.of("default"), DataSourceSelection.configuredNames());
        Env.override(Map.of("DATA_SOURCES", "{\"production\": {\"secret\": \"arn:x\"}, \"staging\": {\"url\": \"postgres://u:p@h/db\"}}"));
        assertEquals(List.of("production", "staging"), DataSourceSelection.configuredNames());
        Env.override(Map.of("DATA_SOURCES", "not json"));
        assertEquals(List.of("default"), DataSourceSelection.configuredNames());
    }

    @Test
    void severalNamesDeclareASavedSelectField() {
        ToolDefinition base = SearchDatabaseSchemaTool.DEFINITION;
        assertNull(base.requiresUserInput(), "tests run with one data source");
        assertSame(base, DataSourceSelection.declare(base, List.of("default")));
        ToolDefinition two = DataSourceSelection.declare(base, List.of("production", "staging"));
        assertTrue(two.requiresUserInput().saveForSession());
        assertEquals(List.of("production", "staging"), two.requiresUserInput().fields().get(0).options());
        assertEquals("string", two.parameters().path("properties").path("database").path("type").asText());
        assertTrue(base.parameters().path("properties").path("database").isMissingNode(), "the base is not changed");
    }
}
