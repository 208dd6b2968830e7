package dev.tablewright.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.codec.ConfigJson;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.fixtures.FixtureCatalog;
import dev.tablewright.fixtures.Fixtures;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.Tool;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.validation.ConfigValidator;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

class OperationToolsTest {

    private static ToolOutcome call(Tool tool, String argumentsJson) {
        try {
            return tool.execute(new ToolInvocation(tool.definition().name(), "call_1", "c_1", "u_1",
                    (ObjectNode) Json.parse(argumentsJson), Map.of()));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static ToolOutcome call(Tool tool, ObjectNode arguments) {
        return tool.execute(new ToolInvocation(tool.definition().name(), null, null, null, arguments, Map.of()));
    }

    private static ObjectNode args(String operation) {
        ObjectNode a = Json.object();
        a.set("config", Fixtures.ordersNode());
        a.put("operation", operation);
        return a;
    }

    /** An ok answer in the one shape; valid answers carry a config that passes ConfigValidator. */
    private static JsonNode output(ToolOutcome outcome) {
        JsonNode out = assertInstanceOf(ToolOutcome.Ok.class, outcome, outcome::toString).output();
        for (String key : List.of("valid", "config", "errors", "warnings", "applied")) {
            assertTrue(out.has(key), "answer has " + key);
        }
        if (out.get("valid").asBoolean()) {
            assertTrue(out.get("errors").isEmpty());
            assertTrue(ConfigValidator.validate(ConfigJson.read(out.get("config")).config()).valid());
        } else {
            assertTrue(out.get("config").isNull());
            assertFalse(out.get("errors").isEmpty());
        }
        return out;
    }

    private static void assertError(JsonNode out, String field, String part) {
        assertFalse(out.get("valid").asBoolean());
        for (JsonNode e : out.get("errors")) {
            if (e.get("field").asText().equals(field) && e.get("message").asText().contains(part)) {
                return;
            }
        }
        fail("no error at " + field + " containing '" + part + "': " + out.get("errors"));
    }

    @Test
    void theColumnExampleWithConfigAsObjectAndAsString() {
        String column = "{\"name\": \"shipped_at\", \"source_table\": \"orders\", \"source_schema\": \"sales\","
                + " \"pg_type\": \"timestamp without time zone\", \"alias\": \"Shipped At\", \"hidden\": false}";
        ObjectNode asObject = args("add");
        asObject.set("columns", Json.MAPPER.createArrayNode().add(parse(column)));
        ObjectNode asString = asObject.deepCopy();
        asString.put("config", Fixtures.ordersJson());
        JsonNode a = output(call(new ApplyColumnChangeTool(), asObject));
        JsonNode b = output(call(new ApplyColumnChangeTool(), asString));
        assertTrue(a.get("valid").asBoolean(), a::toString);
        assertEquals(a, b);
        assertEquals("datetime", a.at("/config/visual_settings/columns/shipped_at/type").asText());
        assertEquals("yyyy-MM-dd HH:mm", a.at("/config/visual_settings/columns/shipped_at/format").asText());
        assertEquals("kept by the client: unknown fields survive every tool", a.at("/config/owner_note").asText());
    }

    @Test
    void theFilterJoinAndSortExamples() {
        ObjectNode f = args("add");
        f.set("filter", parse("{\"column\": \"status\", \"operator\": \"eq\", \"value\": \"active\", \"label\": \"Status filter\"}"));
        JsonNode filtered = output(call(new ApplyFilterChangeTool(), f));
        assertTrue(filtered.get("valid").asBoolean());
        assertEquals(Fixtures.ordersNode().get("owner_note"), filtered.at("/config/owner_note"), "unknown fields survive");
        assertEquals("compact", filtered.at("/config/visual_settings/density").asText());

        ObjectNode j = Json.object();
        j.set("config", ConfigJson.write(Fixtures.emptyOrders()));
        j.put("operation", "add");
        j.set("join", parse("{\"table\": \"users\", \"schema\": \"core\", \"join_type\": \"LEFT\", \"relationship_from\": \"orders.created_by\","
                + " \"relationship_to\": \"users.id\", \"columns_to_add\": [\"first_name\", \"last_name\"]}"));
        JsonNode joined = output(call(new ApplyJoinChangeTool(new FixtureCatalog()), j));
        assertTrue(joined.get("valid").asBoolean(), joined::toString);
        assertEquals("users_created_by", joined.at("/config/data_source/0/select/foreign_tables/0/alias").asText());
        assertEquals("first_name", joined.at("/config/data_source/0/select/columns/0/name").asText());
        assertEquals("users_created_by", joined.at("/config/data_source/0/select/columns/0/table").asText());

        ObjectNode s = args("set");
        s.set("sort", parse("[{\"column\": \"created_at\", \"direction\": \"desc\"}]"));
        JsonNode sorted = output(call(new ApplySortChangeTool(), s));
        assertTrue(sorted.get("valid").asBoolean(), sorted::toString);
        assertEquals(1, sorted.at("/config/data_source/0/sort").size());
        assertEquals("second join of users", sorted.at("/config/data_source/0/select/foreign_tables/2/x-note").asText());
        ObjectNode r = args("remove");
        r.set("join", parse("{\"alias\": \"customers\"}"));
        JsonNode removed = output(call(new ApplyJoinChangeTool(), r));
        assertTrue(removed.get("valid").asBoolean(), removed::toString);
        assertEquals("second join of users", removed.at("/config/data_source/0/select/foreign_tables/1/x-note").asText());
        assertEquals(180, removed.at("/config/data_source/0/select/columns/18/ui_width").asInt());
    }

    @Test
    void badArgumentsAreFieldLevelErrorsInTheOneShape() {
        ObjectNode oneName = args("add");
        oneName.put("columns", "discount");
        JsonNode one = output(call(new ApplyColumnChangeTool(new FixtureCatalog()), oneName));
        assertTrue(one.get("valid").asBoolean(), one::toString);
        assertEquals("number", one.at("/config/visual_settings/columns/discount/type").asText());

        ObjectNode unknownOp = args("rename");
        unknownOp.set("columns", parse("[{\"name\": \"notes\"}]"));
        assertError(output(call(new ApplyColumnChangeTool(), unknownOp)), "operation", "'rename' is not one of add, remove");

        ObjectNode missing = Json.object();
        JsonNode m = output(call(new ApplyColumnChangeTool(), missing));
        assertError(m, "config", "missing");
        assertError(m, "operation", "missing");
        assertError(m, "columns", "missing");

        ObjectNode wrongTypes = args("add");
        wrongTypes.set("columns", parse("[{\"name\": 5, \"hidden\": \"sometimes\"}, 7]"));
        JsonNode w = output(call(new ApplyColumnChangeTool(), wrongTypes));
        assertError(w, "columns[0].name", "must be a string, got a number");
        assertError(w, "columns[0].hidden", "true or false");
        assertError(w, "columns[1]", "expected an object");

        ObjectNode malformed = args("add");
        malformed.put("config", "{\"data_source\": [");
        malformed.set("columns", parse("[{\"name\": \"notes\"}]"));
        assertError(output(call(new ApplyColumnChangeTool(), malformed)), "config", "not valid JSON");

        ObjectNode configNumber = args("add");
        configNumber.put("config", 42);
        configNumber.set("columns", parse("[{\"name\": \"notes\"}]"));
        assertError(output(call(new ApplyColumnChangeTool(), configNumber)), "config", "got a number");

        ObjectNode badConfig = args("add");
        ((ObjectNode) badConfig.get("config").get("data_source").get(0)).put("source", 3);
        badConfig.set("columns", parse("[{\"name\": \"notes\"}]"));
        assertError(output(call(new ApplyColumnChangeTool(), badConfig)), "data_source[0].source", "expected a string");

        ObjectNode filterNotObject = args("add");
        filterNotObject.put("filter", 12);
        assertError(output(call(new ApplyFilterChangeTool(), filterNotObject)), "filter", "must be an object");

        ObjectNode sortDirection = args("add");
        sortDirection.set("sort", parse("[{\"column\": \"total\", \"direction\": \"sideways\"}]"));
        assertError(output(call(new ApplySortChangeTool(), sortDirection)), "sort[0].direction", "not asc or desc");
    }

    @Test
    void hostileSizesAreBoundedFieldErrors() {
        ObjectNode longName = args("add");
        longName.set("columns", Json.MAPPER.createArrayNode().add(Json.object().put("name", "c".repeat(64))));
        assertError(output(call(new ApplyColumnChangeTool(), longName)), "columns[0].name", "at most 63");

        ObjectNode nonIdentifier = args("add");
        nonIdentifier.set("columns", Json.MAPPER.createArrayNode().add(Json.object().put("name", "total); DROP TABLE orders; --")));
        assertError(output(call(new ApplyColumnChangeTool(), nonIdentifier)), "columns[0].name", "not a plain identifier");

        ObjectNode huge = args("add");
        String fiveMb = "x".repeat(5 * 1024 * 1024);
        huge.set("columns", Json.MAPPER.createArrayNode().add(Json.object().put("name", fiveMb)));
        JsonNode h = output(call(new ApplyColumnChangeTool(), huge));
        assertError(h, "columns[0].name", "at most 10000 are accepted");
        assertTrue(h.toString().length() < 2_000, "the answer does not echo the 5 MB string");

        ObjectNode hugeFilterValue = args("add");
        hugeFilterValue.set("filter", Json.object().put("column", "notes").put("operator", "contains").put("value", fiveMb));
        JsonNode hv = output(call(new ApplyFilterChangeTool(), hugeFilterValue));
        assertError(hv, "data_source[0].filters[5].value", "at most 1000");
        assertTrue(hv.toString().length() < 2_000);

        ObjectNode tenThousand = args("add");
        ObjectNode cfg = (ObjectNode) tenThousand.get("config");
        ArrayNode cols = (ArrayNode) cfg.at("/data_source/0/select/columns");
        ObjectNode settings = (ObjectNode) cfg.at("/visual_settings/columns");
        for (int i = 0; i < 10_000; i++) {
            cols.addObject().put("name", "c" + i);
            settings.putObject("c" + i).put("type", "string").put("order", 100 + i);
        }
        tenThousand.set("columns", parse("[{\"name\": \"discount\", \"pg_type\": \"real\"}]"));
        JsonNode t = output(call(new ApplyColumnChangeTool(), tenThousand));
        assertError(t, "data_source[0].select.columns", "too many columns");
        assertTrue(t.get("errors").size() <= 51);

        ObjectNode hugeDescription = Json.object();
        ObjectNode described = Fixtures.ordersNode();
        described.put("description", fiveMb);
        hugeDescription.put("config", Json.write(described));
        JsonNode hd = output(call(new ValidateTableConfigTool(), hugeDescription));
        assertError(hd, "description", "5242880 characters long; at most 4000");
        assertTrue(hd.toString().length() < 2_000);

        ObjectNode tooManyArgs = args("add");
        ArrayNode many = tooManyArgs.putArray("columns");
        for (int i = 0; i < 101; i++) {
            many.addObject().put("name", "c" + i);
        }
        assertError(output(call(new ApplyColumnChangeTool(), tooManyArgs)), "columns", "at most 100");
    }

    @Test
    void noArgumentsAtAllIsAnInvalidArgumentsError() {
        ToolOutcome o = new ApplyColumnChangeTool().execute(new ToolInvocation("apply_column_change", null, null, null, null, Map.of()));
        assertEquals(ToolOutcome.Status.ERROR, o.status());
        assertEquals(ErrorCode.INVALID_ARGUMENTS, assertInstanceOf(ToolOutcome.Failed.class, o).error().code());
    }

    @Test
    void validateIsADryRunWithGrounding() {
        ObjectNode a = Json.object();
        a.set("config", Fixtures.ordersNode());
        JsonNode ok = output(call(new ValidateTableConfigTool(new FixtureCatalog()), a));
        assertTrue(ok.get("valid").asBoolean(), ok::toString);
        assertEquals(Fixtures.ordersNode(), ok.get("config"));
        assertTrue(ok.get("applied").isEmpty());

        JsonNode ungrounded = output(call(new ValidateTableConfigTool(), a));
        assertTrue(ungrounded.get("warnings").toString().contains("no schema catalogue"));

        ObjectNode wrong = Json.object();
        ObjectNode cfg = Fixtures.ordersNode();
        ((ObjectNode) cfg.at("/data_source/0/select/columns/3")).put("name", "totl");
        ObjectNode s = (ObjectNode) cfg.at("/visual_settings/columns");
        s.set("totl", s.remove("total"));
        ((ObjectNode) cfg.at("/data_source/0/filters/1")).put("column", "totl");
        ((ObjectNode) cfg.at("/data_source/0/sort/1")).put("column", "totl");
        wrong.set("config", cfg);
        assertError(output(call(new ValidateTableConfigTool(new FixtureCatalog()), wrong)),
                "data_source[0].select.columns[3].name", "Did you mean total");

        ObjectNode invalid = Json.object();
        ObjectNode cfg2 = Fixtures.ordersNode();
        ((ObjectNode) cfg2.at("/data_source/0/filters/1")).put("operator", "contains");
        invalid.set("config", cfg2);
        assertError(output(call(new ValidateTableConfigTool(), invalid)), "data_source[0].filters[1].operator",
                "operator 'contains' is not valid for number column 'total'");
    }

    @Test
    void discoverTableReference() {
        ToolOutcome o = call(new DiscoverTableReferenceTool(), "{\"pg_types\": [\"numeric(10,2)\", \"_int4\", \"geometry\"]}");
        assertEquals(ToolOutcome.Status.OK, o.status());
        assertEquals("number", assertInstanceOf(ToolOutcome.Ok.class, o).output().at("/mapped/numeric(10,2)/visual_type").asText());
        assertEquals("array", assertInstanceOf(ToolOutcome.Ok.class, o).output().at("/mapped/_int4/visual_type").asText());
        assertEquals("number", assertInstanceOf(ToolOutcome.Ok.class, o).output().at("/mapped/_int4/element_type").asText());
        assertTrue(assertInstanceOf(ToolOutcome.Ok.class, o).output().at("/mapped/geometry/warning").asText().contains("unknown"));
        assertTrue(assertInstanceOf(ToolOutcome.Ok.class, o).output().at("/visual_types/string/operators").toString().contains("contains"));
        ToolOutcome bare = call(new DiscoverTableReferenceTool(), "{}");
        assertEquals("datetime", assertInstanceOf(ToolOutcome.Ok.class, bare).output().at("/pg_types/timestamptz").asText());
        ToolOutcome bad = call(new DiscoverTableReferenceTool(), "{\"pg_types\": [5]}");
        assertEquals("pg_types[0]", assertInstanceOf(ToolOutcome.Ok.class, bad).output().at("/errors/0/field").asText());
    }

    private static JsonNode parse(String json) {
        try {
            return Json.parse(json);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    // ---- the chat's working config, passed beside the arguments ----

    private static ToolOutcome callWithWorkingConfig(Tool tool, ObjectNode arguments, JsonNode workingConfig) {
        return tool.execute(new ToolInvocation(tool.definition().name(), "call_1", "c_1", "u_1", arguments, Map.of(),
                null, workingConfig));
    }

    @Test
    void withoutAConfigArgumentTheToolsWorkOnTheWorkingConfig() {
        ObjectNode f = Json.object().put("operation", "add");
        f.set("filter", parse("{\"column\": \"status\", \"operator\": \"eq\", \"value\": \"active\"}"));
        JsonNode filtered = output(callWithWorkingConfig(new ApplyFilterChangeTool(), f, Fixtures.ordersNode()));
        assertTrue(filtered.get("valid").asBoolean(), filtered::toString);
        assertEquals(Fixtures.ordersNode().at("/name"), filtered.at("/config/name"), "the working config was changed");
        assertFalse(f.has("config"), "the arguments are not written into");

        JsonNode validated = output(callWithWorkingConfig(new ValidateTableConfigTool(), Json.object(), Fixtures.ordersNode()));
        assertTrue(validated.get("valid").asBoolean(), validated::toString);
    }

    @Test
    void aConfigArgumentWinsOverTheWorkingConfigAndANullOneDoesNot() {
        ObjectNode broken = Json.object().put("name", "no data source");
        ObjectNode given = Json.object();
        given.set("config", Fixtures.ordersNode());
        assertTrue(output(callWithWorkingConfig(new ValidateTableConfigTool(), given, broken)).get("valid").asBoolean(),
                "the argument's config is the one checked");
        assertFalse(output(callWithWorkingConfig(new ValidateTableConfigTool(), given.deepCopy().putNull("config"), broken))
                .get("valid").asBoolean(), "a null config argument is none: the working config is checked");
    }

    @Test
    void withNeitherTheConfigIsMissingAsBefore() {
        JsonNode out = output(callWithWorkingConfig(new ValidateTableConfigTool(), Json.object(), null));
        assertError(out, "config", "config is missing: pass the current table config");
    }
}
