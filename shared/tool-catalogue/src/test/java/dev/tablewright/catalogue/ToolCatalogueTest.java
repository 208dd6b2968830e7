package dev.tablewright.catalogue;

import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolDefinition.Audience;
import dev.tablewright.toolcontract.ToolRegistry;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ToolCatalogueTest {

    private static List<String> names(ToolRegistry registry) {
        return registry.all().stream().map(ToolDefinition::name).toList();
    }

    @Test
    void eachDoorOffersItsToolsAndNoOther() {
        assertEquals(List.of("apply_column_change", "apply_filter_change", "apply_join_change", "apply_sort_change",
                "validate_table_config", "discover_table_reference", "search_database_schema", "preview_table_config",
                "get_table_config", "list_table_configs", "create_table_config", "search_tools", "update_editable_status"),
                names(ToolCatalogue.registry().offeredOn(Audience.AGENT)), "update_table_config bypasses the preview: no door offers it");
        assertEquals(List.of("apply_column_change", "apply_filter_change", "apply_join_change", "apply_sort_change",
                "validate_table_config", "discover_table_reference", "search_database_schema", "preview_table_config",
                "get_table_config", "list_table_configs", "accept_preview", "reject_preview"),
                names(ToolCatalogue.registry().offeredOn(Audience.MCP_HOST)), "the config writes and the agent's own tools stay off MCP");
        assertEquals(List.of("keep_preview", "discard_preview"), names(ToolCatalogue.registry().offeredOn(Audience.APP_VIEW)),
                "only the preview view's buttons are for an MCP App's view alone");
    }

    @Test
    void onlyTheSaveOfAPreviewNeedsTheUsersApproval() {
        assertEquals(List.of("accept_preview"), ToolCatalogue.DEFINITIONS.stream().filter(ToolDefinition::needsApproval)
                .map(ToolDefinition::name).toList());
    }

    @Test
    void aToolOnMcpWithoutATitleOrWhatItChangesIsRefused() {
        List<ToolDefinition> untitled = new ArrayList<>(ToolCatalogue.DEFINITIONS);
        untitled.set(0, OperationToolDefinitions.APPLY_COLUMN_CHANGE.titled(null));
        IllegalStateException noTitle = assertThrows(IllegalStateException.class,
                () -> ToolCatalogue.registry(untitled, List.of("default")));
        assertTrue(noTitle.getMessage().contains("'apply_column_change' is offered on MCP_HOST without a title"), noTitle.getMessage());

        List<ToolDefinition> unsaid = new ArrayList<>(ToolCatalogue.DEFINITIONS);
        unsaid.set(0, OperationToolDefinitions.APPLY_COLUMN_CHANGE.changing(null));
        IllegalStateException noAccess = assertThrows(IllegalStateException.class,
                () -> ToolCatalogue.registry(unsaid, List.of("default")));
        assertTrue(noAccess.getMessage().contains("without saying what it changes"), noAccess.getMessage());

        // the chat shows neither: a chat-only tool needs no title
        List<ToolDefinition> chatOnly = new ArrayList<>(ToolCatalogue.DEFINITIONS);
        chatOnly.set(0, OperationToolDefinitions.APPLY_COLUMN_CHANGE.titled(null).changing(null).on(Audience.AGENT));
        assertTrue(ToolCatalogue.registry(chatOnly, List.of("default")).find("apply_column_change").isPresent());
    }

    @Test
    void theChatSendsTheCommonOperationToolsAsCoreToolsAndFindsTheOthers() {
        ToolRegistry chat = ToolCatalogue.registry().offeredOn(Audience.AGENT);
        List<String> core = chat.coreTools("tables").stream().map(ToolDefinition::name).toList();
        assertTrue(core.containsAll(List.of("apply_column_change", "apply_filter_change", "discover_table_reference")), core.toString());
        assertTrue(!core.contains("apply_join_change") && !core.contains("apply_sort_change"), "join and sort are discoverable");
        Set<String> sent = Set.copyOf(core);
        assertEquals("apply_sort_change", chat.search("sort the rows by date", sent, 3).get(0).tool().name());
        assertEquals("apply_join_change", chat.search("join the warehouses table", sent, 3).get(0).tool().name());
        assertEquals("validate_table_config", chat.search("validate", sent, 3).get(0).tool().name());
    }

    @Test
    void everyArgumentSchemaIsAnObject() {
        // Constructing the registry checks names, duplicates, descriptions and what each door needs.
        for (ToolDefinition t : ToolCatalogue.registry().all()) {
            assertEquals("object", t.parameters().path("type").asText(), t.name() + " parameters must be an object schema");
        }
    }

    @Test
    void theOperationToolsDefinitions() {
        assertEquals(Set.of("tables"), OperationToolDefinitions.APPLY_COLUMN_CHANGE.coreIn());
        assertEquals(Set.of("tables"), OperationToolDefinitions.APPLY_FILTER_CHANGE.coreIn());
        assertEquals(Set.of("tables"), OperationToolDefinitions.DISCOVER_TABLE_REFERENCE.coreIn());
        assertEquals(Set.of(), OperationToolDefinitions.APPLY_JOIN_CHANGE.coreIn());
        assertEquals(Set.of(), OperationToolDefinitions.APPLY_SORT_CHANGE.coreIn());
        assertEquals(Set.of(), OperationToolDefinitions.VALIDATE_TABLE_CONFIG.coreIn());
        for (ToolDefinition d : List.of(OperationToolDefinitions.APPLY_COLUMN_CHANGE, OperationToolDefinitions.APPLY_FILTER_CHANGE,
                OperationToolDefinitions.APPLY_JOIN_CHANGE, OperationToolDefinitions.APPLY_SORT_CHANGE,
                OperationToolDefinitions.VALIDATE_TABLE_CONFIG, OperationToolDefinitions.DISCOVER_TABLE_REFERENCE)) {
            assertEquals("object", d.parameters().get("type").asText());
            assertTrue(d.description().length() > 100, d.name());
            assertEquals(ToolDefinition.RunsOn.FUNCTION, d.runsOn());
            assertEquals(ToolDefinition.Access.READ_ONLY, d.access(), d.name() + " answers a changed copy: it changes nothing");
        }
        assertEquals("ApplyColumnChangeFunction", OperationToolDefinitions.APPLY_COLUMN_CHANGE.functionLogicalId());
        assertEquals("[\"config\",\"operation\",\"columns\"]", OperationToolDefinitions.APPLY_COLUMN_CHANGE.parameters().get("required").toString());
        assertTrue(OperationToolDefinitions.APPLY_FILTER_CHANGE.parameters().at("/properties/filter/properties/operator/enum")
                .toString().contains("starts_with"));
    }

    @Test
    void severalDataSourcesMakeTheToolsThatQueryADatabaseAskWhichOne() {
        ToolRegistry one = ToolCatalogue.registry();
        ToolRegistry two = ToolCatalogue.registry(List.of("production", "staging"));
        for (String name : List.of("search_database_schema", "preview_table_config")) {
            assertNull(one.get(name).requiresUserInput(), name);
            assertEquals(List.of("production", "staging"), two.get(name).requiresUserInput().fields().get(0).options(), name);
        }
        assertEquals(one.get("apply_column_change"), two.get("apply_column_change"), "the other tools are the same");
    }

    @Test
    void whetherAToolWorksOnADataSourceIsPartOfItsDefinition() {
        List<String> onADataSource = ToolCatalogue.registry().all().stream().filter(ToolDefinition::worksOnDataSource)
                .map(ToolDefinition::name).sorted().toList();
        assertEquals(List.of("apply_column_change", "apply_filter_change", "apply_join_change", "apply_sort_change",
                "preview_table_config", "search_database_schema", "validate_table_config"), onADataSource);
    }

    @Test
    void namesComeFromDataSourcesKeysWithoutReadingCredentials() {
        assertEquals(List.of("default"), DataSources.namesOf(null));
        assertEquals(List.of("production", "staging"), DataSources.namesOf(
                "{\"production\": {\"secret\": \"arn:x\"}, \"staging\": {\"url\": \"postgres://u:p@h/db\"}}"));
        assertEquals(List.of("default"), DataSources.namesOf("not json"));
    }

    @Test
    void severalNamesDeclareASavedSelectField() {
        ToolDefinition base = DatabaseToolDefinitions.SEARCH_DATABASE_SCHEMA;
        assertNull(base.requiresUserInput(), "the definition itself declares no selection");
        assertSame(base, DataSources.declare(base, List.of("default")));
        ToolDefinition two = DataSources.declare(base, List.of("production", "staging"));
        assertTrue(two.requiresUserInput().saveForSession());
        assertEquals(List.of("production", "staging"), two.requiresUserInput().fields().get(0).options());
        assertEquals("string", two.parameters().path("properties").path("database").path("type").asText());
        assertTrue(base.parameters().path("properties").path("database").isMissingNode(), "the base is not changed");
        assertTrue(two.worksOnDataSource(), "declaring the selection keeps what the tool is");
        assertEquals(base.title(), two.title());
        assertFalse(two.needsApproval());
    }
}
