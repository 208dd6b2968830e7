package dev.tablewright.validation;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.codec.ConfigJson;
import dev.tablewright.fixtures.Fixtures;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.Test;

import java.util.function.Consumer;

import static dev.tablewright.fixtures.Errors.assertHas;
import static org.junit.jupiter.api.Assertions.*;

class ConfigValidatorTest {

    private static ValidationReport validate(Consumer<ObjectNode> edit) {
        ObjectNode node = Fixtures.ordersNode();
        edit.accept(node);
        ConfigJson.Read read = ConfigJson.read(node);
        assertTrue(read.ok(), () -> read.errors().toString());
        return ConfigValidator.validate(read.config());
    }

    private static ObjectNode ds(ObjectNode root) {
        return (ObjectNode) root.get("data_source").get(0);
    }

    private static ArrayNode columns(ObjectNode root) {
        return (ArrayNode) ds(root).get("select").get("columns");
    }

    private static ArrayNode joins(ObjectNode root) {
        return (ArrayNode) ds(root).get("select").get("foreign_tables");
    }

    private static ObjectNode settings(ObjectNode root) {
        return (ObjectNode) root.get("visual_settings").get("columns");
    }

    @Test
    void theRealisticFixtureIsValid() {
        ValidationReport r = ConfigValidator.validate(Fixtures.orders());
        assertTrue(r.valid(), () -> r.errors().toString());
        assertTrue(r.warnings().isEmpty(), () -> r.warnings().toString());
    }

    @Test
    void baseTableIsRequired() {
        assertHas(validate(n -> n.remove("data_source")).errors(), "data_source", "base table is required");
        assertHas(validate(n -> ds(n).remove("source")).errors(), "data_source[0].source", "missing");
        assertHas(validate(n -> ds(n).remove("schema")).errors(), "data_source[0].schema", "missing");
        assertHas(validate(n -> ((ArrayNode) n.get("data_source")).addObject().put("schema", "a").put("source", "b")).errors(),
                "data_source[1]", "only one data source");
    }

    @Test
    void selectedColumnsAndVisualSettingsStayInSync() {
        assertHas(validate(n -> settings(n).remove("notes")).errors(), "data_source[0].select.columns[9]",
                "has no entry in visual_settings.columns");
        assertHas(validate(n -> settings(n).putObject("ghost").put("type", "string").put("order", 99)).errors(),
                "visual_settings.columns.ghost", "not selected");
        // keyed by alias, not by name
        assertHas(validate(n -> {
            ObjectNode s = (ObjectNode) settings(n).remove("customer_name");
            settings(n).set("name", s);
        }).errors(), "data_source[0].select.columns[15]", "'customer_name' has no entry");
    }

    @Test
    void resultKeysAreUnique() {
        ValidationReport r = validate(n -> columns(n).addObject().put("name", "email").put("table", "customers"));
        assertHas(r.errors(), "data_source[0].select.columns[22]", "'email'");
        ValidationReport dup = validate(n -> columns(n).addObject().put("name", "id").put("table", "customers"));
        assertHas(dup.errors(), "data_source[0].select.columns[22]", "result key 'id' is already used by columns[0]; give one of them an alias");
    }

    @Test
    void orderingIsAllOrNothingAndDistinct() {
        assertHas(validate(n -> ((ObjectNode) settings(n).get("notes")).remove("order")).errors(),
                "visual_settings.columns.notes.order", "ordering is all-or-nothing");
        assertHas(validate(n -> ((ObjectNode) settings(n).get("notes")).put("order", 1)).errors(),
                "visual_settings.columns.notes.order", "distinct orders");
        // hidden columns need no order; no column ordered at all is fine
        ValidationReport none = validate(n -> settings(n).forEach(s -> ((ObjectNode) s).remove("order")));
        assertTrue(none.valid(), () -> none.errors().toString());
        assertHas(validate(n -> ((ObjectNode) settings(n).get("notes")).put("order", -1)).errors(),
                "visual_settings.columns.notes.order", "zero or positive");
    }

    @Test
    void datesAndDatetimesCarryAFormat() {
        assertHas(validate(n -> ((ObjectNode) settings(n).get("created_at")).remove("format")).errors(),
                "visual_settings.columns.created_at.format", "datetime column 'created_at' needs a format");
        assertHas(validate(n -> ((ObjectNode) settings(n).get("due_date")).remove("format")).errors(),
                "visual_settings.columns.due_date.format", "date column 'due_date' needs a format");
        ValidationReport custom = validate(n -> ((ObjectNode) settings(n).get("due_date")).put("format", "yy/M/d"));
        assertTrue(custom.valid());
        assertHas(custom.warnings(), "visual_settings.columns.due_date.format", "custom pattern");
    }

    @Test
    void visualTypeMustBeKnownAndMissingTypeWarns() {
        assertHas(validate(n -> ((ObjectNode) settings(n).get("notes")).put("type", "rainbow")).errors(),
                "visual_settings.columns.notes.type", "not a visual type");
        ValidationReport missing = validate(n -> ((ObjectNode) settings(n).get("notes")).remove("type"));
        assertTrue(missing.valid());
        assertHas(missing.warnings(), "visual_settings.columns.notes.type", "shown as string");
    }

    @Test
    void filterAndSortColumnsMustBeSelectedHiddenCounts() {
        assertHas(validate(n -> ((ObjectNode) ds(n).get("filters").get(0)).put("column", "shipped_at")).errors(),
                "data_source[0].filters[0].column", "not selected");
        assertHas(validate(n -> ((ObjectNode) ds(n).get("sort").get(0)).put("column", "shipped_at")).errors(),
                "data_source[0].sort[0].column", "not selected");
        ValidationReport hidden = validate(n -> ((ArrayNode) ds(n).get("filters")).addObject()
                .put("column", "customer_id").put("operator", "eq").put("value", 3));
        assertTrue(hidden.valid(), () -> hidden.errors().toString());
        assertHas(validate(n -> ((ArrayNode) ds(n).get("sort")).addObject().put("column", "total").put("direction", "desc")).errors(),
                "data_source[0].sort[2].column", "sorted twice");
        assertHas(validate(n -> ((ObjectNode) ds(n).get("sort").get(0)).put("direction", "up")).errors(),
                "data_source[0].sort[0].direction", "not asc or desc");
    }

    @Test
    void operatorMustBeValidForTheVisualType() {
        ValidationReport r = validate(n -> ((ObjectNode) ds(n).get("filters").get(1)).put("operator", "contains"));
        assertHas(r.errors(), "data_source[0].filters[1].operator", "operator 'contains' is not valid for number column 'total'");
        assertHas(validate(n -> ((ObjectNode) ds(n).get("filters").get(1)).put("operator", "like")).errors(),
                "data_source[0].filters[1].operator", "not a filter operator");
        assertHas(validate(n -> ((ObjectNode) ds(n).get("filters").get(3)).put("operator", "gt")).errors(),
                "data_source[0].filters[3].operator", "not valid for boolean column 'is_paid'");
        assertTrue(validate(n -> ((ObjectNode) ds(n).get("filters").get(1)).put("operator", "EQ")).valid(), "operators read case-insensitively");
    }

    @Test
    void filterValuesMatchTheOperatorAndType() {
        assertHas(validate(n -> ((ObjectNode) ds(n).get("filters").get(1)).put("value", "lots")).errors(),
                "data_source[0].filters[1].value", "must be a number");
        assertHas(validate(n -> ((ObjectNode) ds(n).get("filters").get(2)).putArray("value").add("2024-01-01")).errors(),
                "data_source[0].filters[2].value", "exactly two values");
        assertHas(validate(n -> ((ObjectNode) ds(n).get("filters").get(0)).putArray("value")).errors(),
                "data_source[0].filters[0].value", "1 to 1000 values");
        assertHas(validate(n -> ((ObjectNode) ds(n).get("filters").get(1)).remove("value")).errors(),
                "data_source[0].filters[1].value", "needs a value");
        assertHas(validate(n -> ((ObjectNode) ds(n).get("filters").get(1)).put("operator", "is_null")).errors(),
                "data_source[0].filters[1].value", "takes no value");
        assertHas(validate(n -> ((ObjectNode) ds(n).get("filters").get(2)).putArray("value").add("yesterday").add("2024-01-01")).errors(),
                "data_source[0].filters[2].value[0]", "ISO date-time");
        assertHas(validate(n -> ((ArrayNode) ds(n).get("filters")).addObject().put("column", "due_date").put("operator", "lt")
                .put("value", "2024-13-01")).errors(), "data_source[0].filters[5].value", "must be a date yyyy-MM-dd");
        assertTrue(validate(n -> ((ArrayNode) ds(n).get("filters")).addObject().put("column", "delivery_window").put("operator", "gte")
                .put("value", "09:30")).valid());
        assertTrue(validate(n -> ((ArrayNode) ds(n).get("filters")).addObject().put("column", "updated_at").put("operator", "lt")
                .put("value", "2024-05-01T09:30:00")).valid());
        assertHas(validate(n -> ((ObjectNode) ds(n).get("filters").get(4)).putObject("value")).errors(),
                "data_source[0].filters[4].value", "string, number or boolean");
    }

    @Test
    void foreignTablesHaveUniqueAliasesJoinTypesAndRelationships() {
        assertHas(validate(n -> ((ObjectNode) joins(n).get(2)).put("alias", "users_created_by")).errors(),
                "data_source[0].select.foreign_tables[2].alias", "already used by foreign_tables[1]");
        assertHas(validate(n -> ((ObjectNode) joins(n).get(0)).put("join_type", "CROSS")).errors(),
                "data_source[0].select.foreign_tables[0].join_type", "not one of INNER, LEFT, RIGHT, FULL");
        assertTrue(validate(n -> ((ObjectNode) joins(n).get(0)).put("join_type", "inner")).valid());
        assertHas(validate(n -> ((ObjectNode) joins(n).get(1)).put("relationship_from", "invoices.created_by")).errors(),
                "data_source[0].select.foreign_tables[1].relationship_from", "must name the base table 'orders'");
        assertHas(validate(n -> ((ObjectNode) joins(n).get(1)).put("relationship_to", "customers.id")).errors(),
                "data_source[0].select.foreign_tables[1].relationship_to", "must name the joined table 'users'");
        assertHas(validate(n -> ((ObjectNode) joins(n).get(1)).put("relationship_from", "orders")).errors(),
                "data_source[0].select.foreign_tables[1].relationship_from", "is not <table-or-alias>.<column>");
        assertHas(validate(n -> ((ObjectNode) joins(n).get(0)).put("alias", "orders")).errors(),
                "data_source[0].select.foreign_tables[0].alias", "base table's name");
        // a join may go through an earlier join's alias
        ValidationReport chained = validate(n -> joins(n).addObject().put("schema", "sales").put("table", "warehouses")
                .put("alias", "warehouses").put("join_type", "LEFT").put("relationship_from", "customers.warehouse_id")
                .put("relationship_to", "warehouses.id"));
        assertTrue(chained.valid(), () -> chained.errors().toString());
    }

    @Test
    void aColumnsTableNamesAJoinedAlias() {
        assertHas(validate(n -> ((ObjectNode) columns(n).get(18)).put("table", "users")).errors(),
                "data_source[0].select.columns[18].table", "not a joined alias");
        assertHas(validate(n -> ((ObjectNode) columns(n).get(0)).put("table", "orders")).errors(),
                "data_source[0].select.columns[0].table", "is the base table");
    }

    @Test
    void namesReachingSqlArePlainIdentifiers() {
        String long64 = "a".repeat(64);
        assertHas(validate(n -> ds(n).put("source", "orders; drop table x")).errors(), "data_source[0].source", "not a plain identifier");
        assertHas(validate(n -> ((ObjectNode) columns(n).get(1)).put("name", long64)).errors(),
                "data_source[0].select.columns[1].name", "64 characters long; at most 63");
        assertHas(validate(n -> ((ObjectNode) columns(n).get(15)).put("alias", "Customer Name")).errors(),
                "data_source[0].select.columns[15].alias", "not a plain identifier");
        assertHas(validate(n -> ((ObjectNode) joins(n).get(0)).put("schema", "1sales")).errors(),
                "data_source[0].select.foreign_tables[0].schema", "not a plain identifier");
        ValidationReport ok63 = validate(n -> {
            String name = "b".repeat(63);
            ((ObjectNode) columns(n).get(9)).put("alias", name);
            ObjectNode s = (ObjectNode) settings(n).remove("notes");
            settings(n).set(name, s);
        });
        assertTrue(ok63.valid(), () -> ok63.errors().toString());
    }

    @Test
    void errorsAreCollectedNotStoppingAtTheFirst() {
        ValidationReport r = validate(n -> {
            ds(n).put("schema", "bad schema");
            ((ObjectNode) joins(n).get(0)).put("join_type", "OUTER");
            ((ObjectNode) settings(n).get("due_date")).remove("format");
            ((ObjectNode) ds(n).get("filters").get(1)).put("operator", "starts_with");
        });
        assertEquals(4, r.errors().size(), r.errors()::toString);
    }

    @Test
    void tenThousandColumnsGetAFewBoundedErrors() {
        ObjectNode node = Fixtures.ordersNode();
        ArrayNode cols = columns(node);
        ObjectNode settings = settings(node);
        for (int i = 0; i < 10_000; i++) {
            cols.addObject().put("name", "c" + i);
            settings.putObject("c" + i).put("type", "string");
        }
        ValidationReport r = ConfigValidator.validate(ConfigJson.read(node).config());
        assertHas(r.errors(), "data_source[0].select.columns", "too many columns: 10022 (at most 500)");
        assertTrue(r.errors().size() <= ValidationCollector.MAX_REPORTED + 1);
        // every one of the 10,000 visible unordered columns breaks all-or-nothing ordering: capped with a summary
        assertTrue(r.errors().get(r.errors().size() - 1).message().endsWith("more errors not listed"));
    }

    @Test
    void aFiveMegabyteNameIsRejectedWithAShortMessage() {
        String huge = "x".repeat(5 * 1024 * 1024);
        ValidationReport r = validate(n -> ((ObjectNode) columns(n).get(1)).put("name", huge));
        assertHas(r.errors(), "data_source[0].select.columns[1].name", "5242880 characters long");
        for (ValidationError e : r.errors()) {
            assertTrue(e.message().length() < 300, "message stays short");
            assertTrue(e.field().length() < 300, "field stays short");
        }
        ValidationReport key = validate(n -> settings(n).putObject(huge).put("type", "string"));
        assertTrue(key.errors().get(0).field().length() < 300);
    }

    @Test
    void emptyConfigIsAnErrorAndNoColumnsAWarning() {
        assertHas(ConfigValidator.validate(null).errors(), "config", "missing");
        ValidationReport fresh = ConfigValidator.validate(Fixtures.emptyOrders());
        assertTrue(fresh.valid());
        assertHas(fresh.warnings(), "data_source[0].select.columns", "no columns");
    }

    @Test
    void pageSizeIsBounded() {
        assertHas(validate(n -> ((ObjectNode) n.get("visual_settings")).put("page_size", 0)).errors(),
                "visual_settings.page_size", "out of range");
    }

    @Test
    void readsTheDesignDocExample() throws Exception {
        String design = """
                {"id": "cfg_orders", "name": "Active orders", "description": "Orders still open", "version": 3,
                  "data_source": [{"schema": "sales", "source": "orders",
                    "select": {"columns": [{"name": "id"}, {"name": "created_at"}, {"name": "status"},
                        {"name": "first_name", "table": "users_created_by", "alias": "creator_first_name"}],
                      "foreign_tables": [{"schema": "core", "table": "users", "alias": "users_created_by", "join_type": "LEFT",
                        "relationship_from": "orders.created_by", "relationship_to": "users.id"}]},
                    "filters": [{"column": "status", "operator": "eq", "value": "open", "label": "Open only"}],
                    "sort": [{"column": "created_at", "direction": "desc"}]}],
                  "visual_settings": {"page_size": 25, "columns": {
                      "id": {"header": "ID", "type": "number", "order": 1},
                      "created_at": {"header": "Created", "type": "datetime", "format": "yyyy-MM-dd HH:mm", "order": 2},
                      "status": {"type": "string", "hidden": true},
                      "creator_first_name": {"header": "Creator", "type": "string", "order": 3}}}}
                """;
        ValidationReport r = ConfigValidator.validate(ConfigJson.read(Json.parse(design)).config());
        assertTrue(r.valid(), () -> r.errors().toString());
    }
}
