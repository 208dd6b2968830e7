package dev.tablewright.codec;

import java.util.List;
import dev.tablewright.config.ColumnSettings;
import dev.tablewright.config.VisualSettings;
import dev.tablewright.config.Sort;
import dev.tablewright.config.Filter;
import dev.tablewright.config.ForeignTable;
import dev.tablewright.config.SelectColumn;
import dev.tablewright.config.Select;
import dev.tablewright.config.DataSource;
import dev.tablewright.config.TableConfig;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.fixtures.Fixtures;
import dev.tablewright.json.Json;
import dev.tablewright.validation.ValidationError;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

class ConfigJsonTest {

    @Test
    void fixtureRoundTripsUnchangedWithUnknownFields() {
        ObjectNode original = Fixtures.ordersNode();
        ConfigJson.Read read = ConfigJson.read(original);
        assertTrue(read.ok(), () -> read.errors().toString());
        JsonNode written = ConfigJson.write(read.config());
        assertEquals(original, written);
        assertEquals("kept by the client: unknown fields survive every tool", written.get("owner_note").asText());
        assertEquals(180, written.at("/data_source/0/select/columns/21/ui_width").asInt());
        assertEquals("left", written.at("/visual_settings/columns/approver_email/align").asText());
        assertEquals("compact", written.at("/visual_settings/density").asText());
    }

    @Test
    void readsFromTextAsFromTree() {
        ConfigJson.Read fromText = ConfigJson.read(Fixtures.ordersJson());
        assertTrue(fromText.ok());
        assertEquals(Fixtures.orders(), fromText.config());
    }

    @Test
    void wrongTypesAreReportedAtTheirFieldsAllAtOnce() throws Exception {
        JsonNode bad = Json.parse("""
                {"name": 5, "version": "seven",
                 "data_source": [{"schema": "sales", "source": ["orders"],
                   "select": {"columns": [{"name": "id"}, "status", {"name": {"x": 1}}], "foreign_tables": {}},
                   "filters": [{"column": "status", "operator": true}]}],
                 "visual_settings": {"page_size": 2.5, "columns": {"id": {"order": "1", "hidden": "no"}, "x y": 3}}}
                """);
        ConfigJson.Read read = ConfigJson.read(bad);
        assertFalse(read.ok());
        assertHas(read, "name", "expected a string, got a number");
        assertHas(read, "version", "expected an integer");
        assertHas(read, "data_source[0].source", "expected a string, got an array");
        assertHas(read, "data_source[0].select.columns[1]", "expected an object, got a string");
        assertHas(read, "data_source[0].select.columns[2].name", "expected a string, got an object");
        assertHas(read, "data_source[0].select.foreign_tables", "expected an array, got an object");
        assertHas(read, "data_source[0].filters[0].operator", "expected a string, got a boolean");
        assertHas(read, "visual_settings.page_size", "expected an integer");
        assertHas(read, "visual_settings.columns.id.order", "expected an integer, got a string");
        assertHas(read, "visual_settings.columns.id.hidden", "expected true or false");
        assertHas(read, "visual_settings.columns[\"x y\"]", "expected an object, got a number");
    }

    @Test
    void malformedJsonAndNonObjectsAreErrorsOnConfig() {
        assertHas(ConfigJson.read("{\"data_source\": ["), "config", "not valid JSON");
        assertHas(ConfigJson.read("[1,2]"), "config", "must be a JSON object, got an array");
        assertHas(ConfigJson.read((String) null), "config", "missing");
    }

    @Test
    void theRecordsCarryNoWireFormatOfTheirOwn() {
        // ConfigJson is the one reader and writer: the records have no Jackson annotations that could disagree with it.
        for (Class<?> record : List.of(TableConfig.class, DataSource.class, Select.class, SelectColumn.class,
                ForeignTable.class, Filter.class, Sort.class, VisualSettings.class, ColumnSettings.class)) {
            for (var component : record.getRecordComponents()) {
                assertEquals(0, component.getAnnotations().length + component.getAccessor().getAnnotations().length,
                        record.getSimpleName() + "." + component.getName() + " is annotated");
            }
        }
    }

    @Test
    void numericIdIsKeptAsText() {
        ConfigJson.Read read = ConfigJson.read("{\"id\": 42, \"data_source\": [{\"schema\": \"s\", \"source\": \"t\"}]}");
        assertTrue(read.ok());
        assertEquals("42", read.config().id());
    }

    static void assertHas(ConfigJson.Read read, String field, String messagePart) {
        for (ValidationError e : read.errors()) {
            if (e.field().equals(field) && e.message().contains(messagePart)) {
                return;
            }
        }
        fail("no error at " + field + " containing '" + messagePart + "' in " + read.errors());
    }
}
