package dev.tablewright.config;

import dev.tablewright.codec.ConfigJson;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigDiffTest {

    static final String BASE = """
            {"id": "cfg_1", "version": 3, "name": "Orders", "data_source": [{"schema": "sales", "source": "orders",
              "select": {"columns": [{"name": "id"}, {"name": "status"}, {"name": "first_name", "table": "creator", "alias": "creator_name"}],
                "foreign_tables": [{"schema": "core", "table": "users", "alias": "creator", "join_type": "LEFT",
                  "relationship_from": "orders.created_by", "relationship_to": "users.id"}]},
              "filters": [{"column": "status", "operator": "eq", "value": "open"}],
              "sort": [{"column": "id", "direction": "asc"}, {"column": "status", "direction": "asc"}]}],
             "visual_settings": {"page_size": 25, "columns": {"id": {"type": "number"}, "status": {"type": "enum"},
               "creator_name": {"type": "string"}}}}
            """;

    static TableConfig read(String json) {
        return ConfigJson.read(json).config();
    }

    @Test
    void aConfigAgainstItselfHasNoDiff() {
        assertTrue(ConfigDiff.between(read(BASE), read(BASE)).isEmpty());
    }

    @Test
    void namesWhatIsAddedRemovedAndChanged() {
        String proposed = BASE
                .replace("{\"name\": \"first_name\", \"table\": \"creator\", \"alias\": \"creator_name\"}", "{\"name\": \"due_date\"}")
                .replace("\"creator_name\": {\"type\": \"string\"}", "\"due_date\": {\"type\": \"date\", \"format\": \"yyyy-MM-dd\"}")
                .replace("\"foreign_tables\": [{\"schema\": \"core\", \"table\": \"users\", \"alias\": \"creator\", \"join_type\": \"LEFT\",\n      \"relationship_from\": \"orders.created_by\", \"relationship_to\": \"users.id\"}]", "\"foreign_tables\": []")
                .replace("\"value\": \"open\"", "\"value\": \"approved\"")
                .replace("\"status\": {\"type\": \"enum\"}", "\"status\": {\"type\": \"enum\", \"hidden\": true}")
                .replace("[{\"column\": \"id\", \"direction\": \"asc\"}, {\"column\": \"status\", \"direction\": \"asc\"}]",
                        "[{\"column\": \"status\", \"direction\": \"desc\"}, {\"column\": \"id\", \"direction\": \"asc\"}]")
                .replace("\"page_size\": 25", "\"page_size\": 50");
        ConfigDiff diff = ConfigDiff.between(read(BASE), read(proposed));
        assertEquals(List.of("due_date"), diff.columns().added());
        assertEquals(List.of("creator_name"), diff.columns().removed());
        assertEquals(List.of(new ConfigDiff.Change("status", List.of("hidden: false -> true"))), diff.columns().changed());
        assertEquals(List.of("creator"), diff.joins().removed());
        assertEquals(List.of(new ConfigDiff.Change("status eq", List.of("value: \"open\" -> \"approved\""))), diff.filters().changed());
        assertEquals(List.of(new ConfigDiff.Change("status", List.of("direction: asc -> desc"))), diff.sorts().changed());
        assertEquals(List.of("page_size: 25 -> 50", "sort order: id, status -> status, id"), diff.settings());
    }

    @Test
    void aNewConfigIsAllAdded() {
        ConfigDiff diff = ConfigDiff.between(null, read(BASE));
        assertEquals(List.of("id", "status", "creator_name"), diff.columns().added());
        assertEquals(List.of("creator"), diff.joins().added());
        assertEquals(List.of("status eq"), diff.filters().added());
        assertEquals(List.of("id", "status"), diff.sorts().added());
        assertEquals(List.of(), diff.settings());
    }
}
