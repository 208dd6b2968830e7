package dev.tablewright.toolcontract;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.codec.ConfigJson;
import dev.tablewright.config.TableConfig;
import dev.tablewright.fixtures.Fixtures;
import dev.tablewright.json.Json;
import dev.tablewright.operations.ColumnChange;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.tablewright.fixtures.Errors.assertHas;
import static org.junit.jupiter.api.Assertions.*;

class ToolArgumentsTest {

    private static ToolArguments of(String json) throws Exception {
        return ToolArguments.of((ObjectNode) Json.parse(json));
    }

    @Test
    void configAsObjectOrAsJsonText() {
        ObjectNode asObject = Json.object();
        asObject.set("config", Fixtures.ordersNode());
        ObjectNode asText = Json.object().put("config", Fixtures.ordersJson());
        TableConfig a = ToolArguments.of(asObject).config("config");
        TableConfig b = ToolArguments.of(asText).config("config");
        assertEquals(Fixtures.orders(), a);
        assertEquals(a, b);
        assertEquals(ConfigJson.write(a), ConfigJson.write(b));
    }

    @Test
    void configProblemsNameTheirFields() throws Exception {
        ToolArguments notJson = of("{\"config\": \"{not json\"}");
        assertNull(notJson.config("config"));
        assertHas(notJson.errors(), "config", "not valid JSON");
        ToolArguments array = of("{\"config\": [1]}");
        assertNull(array.config("config"));
        assertHas(array.errors(), "config", "got an array");
        ToolArguments inner = of("{\"config\": {\"data_source\": [{\"schema\": 1}]}}");
        assertNull(inner.config("config"));
        assertHas(inner.errors(), "data_source[0].schema", "expected a string, got a number");
    }

    @Test
    void textsChoicesBooleansAndLists() throws Exception {
        ToolArguments a = of("{\"operation\": \"ADD\", \"name\": 3, \"hidden\": \"true\", \"flag\": 1, \"long\": \""
                + "y".repeat(10_001) + "\", \"items\": \"[{\\\"a\\\": 1}]\", \"one\": {\"a\": 2}, \"bad\": 5}");
        assertEquals(ColumnChange.Operation.ADD, a.choice("operation", ColumnChange.Operation.class, true));
        assertNull(a.text("name", true));
        assertEquals(Boolean.TRUE, a.bool("hidden"));
        assertNull(a.bool("flag"));
        assertNull(a.text("long", false));
        assertNull(a.text("absent", true));
        assertEquals(List.of(1), a.list("items", true, 10, (n, p) -> n.get("a").asInt()));
        assertEquals(List.of(2), a.list("one", true, 10, (n, p) -> n.get("a").asInt()), "one object reads as a list of one");
        assertNull(a.list("bad", true, 10, (n, p) -> n));
        assertEquals(List.of("notes"), of("{\"c\": \"notes\"}").list("c", true, 10, (n, p) -> n.asText()), "a string reads as a list of one");
        assertFalse(a.ok());
        assertHas(a.errors(), "name", "must be a string, got a number");
        assertHas(a.errors(), "flag", "true or false");
        assertHas(a.errors(), "long", "10001 characters long");
        assertHas(a.errors(), "absent", "missing");
        assertHas(a.errors(), "bad", "must be an array");
        ToolArguments unknown = of("{\"operation\": \"rename\"}");
        assertNull(unknown.choice("operation", ColumnChange.Operation.class, true));
        assertHas(unknown.errors(), "operation", "'rename' is not one of add, remove");
    }

    @Test
    void nestedReadersPrefixTheirFields() throws Exception {
        ToolArguments a = of("{\"filter\": {\"column\": 7}}");
        ToolArguments f = a.at(a.object("filter", true), "filter");
        assertNull(f.text("column", true));
        assertHas(a.errors(), "filter.column", "must be a string");
        ToolArguments embedded = of("{\"filter\": \"{\\\"column\\\": \\\"x\\\"}\"}");
        assertEquals("x", embedded.at(embedded.object("filter", true), "filter").text("column", true), "an object sent as JSON text");
    }

    @Test
    void listsAreBounded() throws Exception {
        StringBuilder many = new StringBuilder("{\"xs\": [");
        for (int i = 0; i < 1001; i++) {
            many.append(i == 0 ? "" : ",").append(i);
        }
        ToolArguments a = of(many.append("]}").toString());
        assertNull(a.list("xs", true, 1000, (n, p) -> n));
        assertHas(a.errors(), "xs", "1001 items; at most 1000");
    }
}
