package dev.tablewright.operations;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.tablewright.config.Filter;
import dev.tablewright.fixtures.FixtureCatalog;
import dev.tablewright.fixtures.Fixtures;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.tablewright.fixtures.Errors.assertHas;
import static dev.tablewright.operations.ColumnChangeTest.assertValid;
import static dev.tablewright.operations.ColumnChangeTest.settings;
import static org.junit.jupiter.api.Assertions.*;

class FilterChangeTest {

    private final FilterChange ungrounded = new FilterChange();
    private final FilterChange grounded = new FilterChange(new FixtureCatalog());

    private static List<Filter> filters(OperationResult r) {
        return r.config().dataSource().get(0).filters();
    }

    @Test
    void theExampleFilterOnASelectedColumn() {
        // {"column": "status", "operator": "eq", "value": "active", "label": "Status filter"}
        OperationResult r = assertValid(ungrounded.add(Fixtures.orders(),
                new FilterSpec("status", "eq", TextNode.valueOf("active"), "Status filter", null, null)));
        Filter f = filters(r).get(5);
        assertEquals("status", f.column());
        assertEquals("eq", f.operator());
        assertEquals("active", f.value().asText());
        assertEquals("Status filter", f.label());
        assertEquals(List.of("filter status eq active added"), r.applied());
    }

    @Test
    void anUnselectedColumnIsAddedHiddenAndReported() {
        OperationResult r = assertValid(grounded.add(Fixtures.orders(), FilterSpec.of("shipped_at", "gte", TextNode.valueOf("2024-06-01"))));
        assertTrue(settings(r, "shipped_at").isHidden());
        assertEquals("datetime", settings(r, "shipped_at").type());
        assertEquals("yyyy-MM-dd HH:mm", settings(r, "shipped_at").format());
        assertNull(settings(r, "shipped_at").order());
        assertEquals(List.of("shipped_at added as a hidden column", "filter shipped_at gte 2024-06-01 added"), r.applied());
    }

    @Test
    void designDocExampleFromAnEmptyConfig() {
        OperationResult r = assertValid(grounded.add(Fixtures.emptyOrders(), FilterSpec.of("status", "eq", TextNode.valueOf("open"))));
        assertEquals(List.of("status added as a hidden column", "filter status eq open added"), r.applied());
        assertEquals("enum", settings(r, "status").type());
    }

    @Test
    void operatorMustSuitTheColumnType() {
        OperationResult r = ungrounded.add(Fixtures.orders(), FilterSpec.of("total", "contains", IntNode.valueOf(5)));
        assertFalse(r.valid());
        assertNull(r.config());
        assertHas(r.errors(), "filter.operator", "operator 'contains' is not valid for number column 'total'");
        assertHas(ungrounded.add(Fixtures.orders(), FilterSpec.of("total", "like", IntNode.valueOf(5))).errors(),
                "filter.operator", "not a filter operator");
        assertHas(ungrounded.add(Fixtures.orders(), FilterSpec.of("total", null, IntNode.valueOf(5))).errors(),
                "filter.operator", "missing");
        assertHas(ungrounded.add(Fixtures.orders(), FilterSpec.of("total", "gt", TextNode.valueOf("many"))).errors(),
                "data_source[0].filters[5].value", "must be a number");
    }

    @Test
    void sameColumnAndOperatorReplacesTheFilter() {
        OperationResult r = assertValid(ungrounded.add(Fixtures.orders(), FilterSpec.of("total", "gte", IntNode.valueOf(500))));
        assertEquals(5, filters(r).size());
        assertEquals(500, filters(r).get(1).value().asInt());
        assertTrue(r.applied().get(0).contains("replaced"));
    }

    @Test
    void valueShapes() throws Exception {
        assertValid(ungrounded.add(Fixtures.orders(), FilterSpec.of("total", "between", Json.parse("[10, 20]"))));
        assertValid(ungrounded.add(Fixtures.orders(), FilterSpec.of("notes", "is_null", null)));
        OperationResult asText = assertValid(ungrounded.add(Fixtures.orders(), FilterSpec.of("total", "in", TextNode.valueOf("[1, 2, 3]"))));
        assertEquals(3, filters(asText).get(5).value().size(), "a list sent as JSON text is read as the list");
        assertValid(ungrounded.add(Fixtures.orders(), FilterSpec.of("external_ref", "in",
                Json.parse("[\"6f1c1f7e-9a57-4c7c-9d31-2f0b3b8f0c11\"]"))));
        assertHas(ungrounded.add(Fixtures.orders(), FilterSpec.of("external_ref", "eq", TextNode.valueOf("nope"))).errors(),
                "data_source[0].filters[5].value", "must be a UUID");
    }

    @Test
    void removeTakesOnlyTheFilterNotItsColumn() {
        OperationResult r = assertValid(ungrounded.remove(Fixtures.orders(), FilterSpec.of("is_paid", null, null)));
        assertEquals(4, filters(r).size());
        assertNotNull(settings(r, "is_paid"), "the column stays selected");
        assertEquals(List.of("filter is_paid eq removed"), r.applied());
        assertHas(ungrounded.remove(Fixtures.orders(), FilterSpec.of("notes", null, null)).errors(),
                "filter.column", "no filter on 'notes'");
        assertHas(ungrounded.remove(Fixtures.orders(), FilterSpec.of("total", "lt", null)).errors(),
                "filter.column", "with operator 'lt'");
    }

    @Test
    void groundedUnknownColumnNamesTheClosest() {
        OperationResult r = grounded.add(Fixtures.orders(), FilterSpec.of("shiped_at", "gte", TextNode.valueOf("2024-06-01")));
        assertHas(r.errors(), "filter.column", "Did you mean shipped_at");
    }

    @Test
    void ungroundedWithoutTypeWarnsAndTreatsAsString() {
        OperationResult r = assertValid(ungrounded.add(Fixtures.orders(), FilterSpec.of("shipped_at", "eq", TextNode.valueOf("x"))));
        assertEquals("string", settings(r, "shipped_at").type());
        assertHas(r.warnings(), "", "no schema catalogue");
        assertHas(r.warnings(), "filter.column.pg_type", "no PostgreSQL type");
    }
}
