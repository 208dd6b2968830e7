package dev.tablewright.localstack.demo;

import dev.tablewright.agent.prompt.ConfigSummary;
import dev.tablewright.agent.prompt.SystemPrompt;
import dev.tablewright.codec.ConfigJson;
import dev.tablewright.editable.TableSettingsFields;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The demo model reads the working config from the system prompt the chat really renders (SystemPrompt with
 * ConfigSummary): if that rendering changes, this fails rather than the demo quietly losing track of the table.
 */
class WorkingConfigSummaryTest {

    private static final String CONFIG = """
            {"id": "cfg_1", "name": "Stock", "data_source": [{"schema": "inventory", "source": "stock_levels",
              "select": {"columns": [{"name": "item_id"}, {"name": "quantity"}, {"name": "name", "table": "warehouses"},
                                     {"name": "name", "table": "items", "alias": "items_name"}, {"name": "reorder_level"}],
                         "foreign_tables": [{"table": "warehouses", "schema": "core", "join_type": "LEFT",
                                             "relationship_from": "stock_levels.warehouse_id", "relationship_to": "warehouses.id"},
                                            {"table": "items", "schema": "inventory", "join_type": "INNER",
                                             "relationship_from": "stock_levels.item_id", "relationship_to": "items.id"}]},
              "filters": [{"column": "quantity", "operator": "gt", "value": 100}],
              "sort": [{"column": "quantity", "direction": "desc"}]}],
             "visual_settings": {"columns": {"item_id": {"type": "number"}, "quantity": {"type": "number"},
                                             "name": {"type": "string"}, "items_name": {"type": "string"},
                                             "reorder_level": {"type": "number", "hidden": true}}}}""";

    private static String prompt(String configId) throws Exception {
        ConfigJson.Read read = ConfigJson.read(Json.parse(CONFIG));
        assertTrue(read.ok(), String.valueOf(read.errors()));
        return SystemPrompt.of("tables", ConfigSummary.render(read.config()), TableSettingsFields.of(configId, "Stock", null, null),
                List.of("search_database_schema", "apply_column_change"), 4).render();
    }

    @Test
    void theRenderedStateReadsBackAsTheConfigsTableColumnsJoinsAndSavedId() throws Exception {
        WorkingConfigSummary summary = WorkingConfigSummary.fromSystemPrompt(prompt("cfg_1"));
        assertEquals("inventory.stock_levels", summary.qualifiedTable());
        assertEquals(List.of("item_id", "quantity", "name", "items_name", "reorder_level"),
                summary.columns().stream().map(WorkingConfigSummary.Column::key).toList());
        WorkingConfigSummary.Column joined = summary.columns().get(2);
        assertEquals("warehouses", joined.table());
        assertEquals("string", joined.type());
        assertTrue(summary.columns().get(4).hidden());
        assertEquals(List.of("item_id", "quantity", "name", "items_name"), summary.shownKeys());
        assertEquals(List.of(new WorkingConfigSummary.Join("core", "warehouses", null),
                new WorkingConfigSummary.Join("inventory", "items", null)), summary.joinList());
        assertTrue(summary.filters().contains("quantity gt 100"), summary.filters());
        assertEquals("quantity desc", summary.sort());
        assertEquals("cfg_1", summary.configId());
    }

    @Test
    void theDigestOfEarlierTurnsDoesNotBlurTheStateAndTheSavedIdIsReadFromWhereItStands() throws Exception {
        ConfigJson.Read read = ConfigJson.read(Json.parse(CONFIG));
        String state = ConfigSummary.render(read.config()) + "Where it stands: saved as config cfg_9 version 2, with no unsaved change.\n";
        String prompt = SystemPrompt.of("tables", state, null, List.of("search_database_schema"), 4)
                .withEarlierTurns(List.of("user: Show items with their price. Base table: sales.orders", "- config_id: \"cfg_0\""), 3).render();
        WorkingConfigSummary summary = WorkingConfigSummary.fromSystemPrompt(prompt);
        assertEquals("inventory.stock_levels", summary.qualifiedTable());
        assertEquals("cfg_9", summary.configId());
        assertEquals(5, summary.columns().size());
    }

    @Test
    void anUnsavedConfigHasNoIdAndAPromptWithoutATableHasNoTable() throws Exception {
        assertFalse(WorkingConfigSummary.fromSystemPrompt(prompt(null)).isSaved());
        String empty = SystemPrompt.of("tables", ConfigSummary.render(null), TableSettingsFields.of(null, null, null, null),
                List.of("search_database_schema"), 4).render();
        WorkingConfigSummary none = WorkingConfigSummary.fromSystemPrompt(empty);
        assertFalse(none.hasTable());
        assertNull(none.configId());
        assertFalse(WorkingConfigSummary.fromSystemPrompt("No config loaded.\n").hasTable());
    }
}
