package dev.tablewright.systemtest.database;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.functions.tools.ApplyColumnChangeFunction;
import dev.tablewright.functions.tools.ApplyFilterChangeFunction;
import dev.tablewright.functions.tools.ValidateTableConfigFunction;
import dev.tablewright.json.Json;
import dev.tablewright.lambda.ToolFunction;
import dev.tablewright.postgres.DatabaseUrl;
import dev.tablewright.postgres.PostgresDatabases;
import dev.tablewright.schema.SchemaCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Flaws an audit found in the operation tools, each through the tool's Lambda handler (the invocation envelope in,
 * the outcome out) grounded against the sample database on the real PostgreSQL.
 */
class OperationToolFlawsTest {

    static PostgresDatabases databases;
    static SchemaCatalog catalog;

    @BeforeAll
    static void connect() {
        DatabaseUrl url = DatabaseTestSupport.database();
        databases = new PostgresDatabases(Map.of("default", url::connect), DatabaseToolsFixture.SCHEMAS, Duration.ofSeconds(5),
                Duration.ofSeconds(60));
        catalog = databases.find("default").orElseThrow().catalog();
    }

    @AfterAll
    static void close() {
        databases.close();
    }

    /** Orders with the warehouse joined (its name selected). */
    static final String ORDERS_WITH_WAREHOUSE = """
            {"name": "Orders by warehouse", "data_source": [{"schema": "sales", "source": "orders",
              "select": {"columns": [{"name": "id"}, {"name": "status"}, {"name": "name", "table": "warehouses"}],
                "foreign_tables": [{"schema": "core", "table": "warehouses", "alias": "warehouses", "join_type": "LEFT",
                  "relationship_from": "orders.warehouse_id", "relationship_to": "warehouses.id"}]}}],
             "visual_settings": {"columns": {"id": {"type": "number"}, "status": {"type": "string"}, "name": {"type": "string"}}}}""";

    static JsonNode call(ToolFunction function, String tool, String arguments) throws Exception {
        ObjectNode envelope = Json.object().put("tool", tool).put("toolCallId", "call_1").put("conversationId", "c1").put("userId", "u1");
        envelope.set("arguments", Json.parse(arguments));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        function.handleRequest(new ByteArrayInputStream(Json.write(envelope).getBytes(StandardCharsets.UTF_8)), out, null);
        JsonNode answer = Json.parse(out.toString(StandardCharsets.UTF_8));
        assertEquals("ok", answer.path("status").asText(), answer.toString());
        // the answer says what it did, and the chat acts on that, not on the output's shape
        assertEquals(answer.path("output").path("valid").asBoolean() ? "proposed_config" : "invalid_config",
                answer.path("effect").asText(), answer.toString().substring(0, Math.min(300, answer.toString().length())));
        return answer.path("output");
    }

    @Test
    void aFilterOnAJoinedTablesColumnFiltersThatColumnNotTheBaseTablesNamesake() throws Exception {
        JsonNode out = call(new ApplyFilterChangeFunction(catalog), "apply_filter_change", """
                {"config": %s, "operation": "add",
                 "filter": {"column": "id", "source_table": "warehouses", "operator": "eq", "value": 1}}""".formatted(ORDERS_WITH_WAREHOUSE));
        assertTrue(out.path("valid").asBoolean(), out.toString());
        JsonNode source = out.path("config").path("data_source").path(0);
        String filtered = source.path("filters").path(0).path("column").asText();
        assertNotEquals("id", filtered, "not orders.id: " + out);
        JsonNode selected = null;
        for (JsonNode c : source.path("select").path("columns")) {
            String key = c.hasNonNull("alias") ? c.get("alias").asText() : c.path("name").asText();
            if (key.equals(filtered)) {
                selected = c;
            }
        }
        assertTrue(selected != null && selected.path("name").asText().equals("id") && selected.path("table").asText().equals("warehouses"),
                "the filtered column is warehouses.id: " + out);

        JsonNode unknown = call(new ApplyFilterChangeFunction(catalog), "apply_filter_change", """
                {"config": %s, "operation": "add",
                 "filter": {"column": "id", "source_table": "suppliers", "operator": "eq", "value": 1}}""".formatted(ORDERS_WITH_WAREHOUSE));
        assertFalse(unknown.path("valid").asBoolean(), unknown.toString());
        assertEquals("filter.source_table", unknown.path("errors").path(0).path("field").asText(), unknown.toString());
    }

    @Test
    void aVeryLongColumnNameOrAliasIsRefusedAsTooLong() throws Exception {
        String longName = "c".repeat(100_000);
        for (String column : new String[]{"{\"name\": \"" + longName + "\", \"pg_type\": \"integer\"}",
                "{\"name\": \"quantity\", \"alias\": \"" + longName + "\", \"pg_type\": \"integer\"}"}) {
            JsonNode out = call(new ApplyColumnChangeFunction(catalog), "apply_column_change", """
                    {"config": {"name": "Stock", "data_source": [{"schema": "inventory", "source": "stock_levels",
                      "select": {"columns": []}}], "visual_settings": {"columns": {}}},
                     "operation": "add", "columns": [%s]}""".formatted(column));
            assertFalse(out.path("valid").asBoolean(), out.toString().substring(0, Math.min(300, out.toString().length())));
            String errors = out.path("errors").toString();
            assertTrue(errors.contains("characters long; at most"), errors.substring(0, Math.min(400, errors.length())));
            assertFalse(errors.contains("not a valid JSON object"), errors.substring(0, Math.min(400, errors.length())));
            assertTrue(errors.length() < 2_000, "the name is not echoed whole");
        }
    }

    @Test
    void validateReportsAVisualTypeItsDatabaseTypeCannotBe() throws Exception {
        String config = """
                {"name": "Orders", "data_source": [{"schema": "sales", "source": "orders",
                  "select": {"columns": [{"name": "id"}, {"name": "created_at"}, {"name": "status"}]}}],
                 "visual_settings": {"columns": {"id": {"type": "number"}, "created_at": %s, "status": {"type": "string"}}}}""";
        JsonNode wrong = call(new ValidateTableConfigFunction(catalog), "validate_table_config",
                "{\"config\": " + config.formatted("{\"type\": \"number\"}") + "}");
        assertFalse(wrong.path("valid").asBoolean(), wrong.toString());
        assertEquals("visual_settings.columns.created_at.type", wrong.path("errors").path(0).path("field").asText(), wrong.toString());
        JsonNode right = call(new ValidateTableConfigFunction(catalog), "validate_table_config",
                "{\"config\": " + config.formatted("{\"type\": \"datetime\", \"format\": \"yyyy-MM-dd HH:mm\"}") + "}");
        assertTrue(right.path("valid").asBoolean(), right.toString());
    }

    @Test
    void closestNamesAreSuggestedByAbbreviationSubstringAndSchemaFirst() throws Exception {
        String orders = """
                {"config": {"name": "Orders", "data_source": [{"schema": "%s", "source": "orders", "select": {"columns": []}}],
                  "visual_settings": {"columns": {}}}, "operation": "add", "columns": [{"name": "%s"}]}""";
        String totl = call(new ApplyColumnChangeFunction(catalog), "apply_column_change", orders.formatted("sales", "totl"))
                .path("errors").toString();
        assertTrue(totl.contains("total_amount"), totl);
        String isPaid = call(new ApplyColumnChangeFunction(catalog), "apply_column_change", orders.formatted("sales", "is_paid"))
                .path("errors").toString();
        assertFalse(isPaid.contains("Did you mean id") || isPaid.matches(".*Did you mean[^\"]*\\bid\\b.*"), isPaid);
        String wrongSchema = call(new ApplyColumnChangeFunction(catalog), "apply_column_change", orders.formatted("core", "id"))
                .path("errors").toString();
        assertTrue(wrongSchema.contains("It is in schema 'sales'"), wrongSchema);
        assertFalse(wrongSchema.contains("users"), "not the closest table of the wrong schema: " + wrongSchema);
    }

    @Test
    void aFilterValueOfAnEnumColumnMustBeOneOfItsLabels() throws Exception {
        String args = """
                {"config": %s, "operation": "add", "filter": {"column": "status", "operator": "%s", "value": %s}}""";
        JsonNode typo = call(new ApplyFilterChangeFunction(catalog), "apply_filter_change",
                args.formatted(ORDERS_WITH_WAREHOUSE, "eq", "\"opn\""));
        assertFalse(typo.path("valid").asBoolean(), typo.toString());
        assertEquals("filter.value", typo.path("errors").path(0).path("field").asText(), typo.toString());
        assertTrue(typo.path("errors").path(0).path("message").asText().contains("Did you mean open?"), typo.toString());
        JsonNode listTypo = call(new ApplyFilterChangeFunction(catalog), "apply_filter_change",
                args.formatted(ORDERS_WITH_WAREHOUSE, "in", "[\"open\", \"shiped\"]"));
        assertFalse(listTypo.path("valid").asBoolean(), listTypo.toString());
        JsonNode right = call(new ApplyFilterChangeFunction(catalog), "apply_filter_change",
                args.formatted(ORDERS_WITH_WAREHOUSE, "eq", "\"open\""));
        assertTrue(right.path("valid").asBoolean(), right.toString());
    }

    @Test
    void aJoinOverACompositeForeignKeyIsMadeAndQueriedOnEveryColumnOfTheKey() throws Exception {
        JsonNode out = call(new dev.tablewright.functions.tools.ApplyJoinChangeFunction(catalog), "apply_join_change", """
                {"config": {"name": "Order lines", "data_source": [{"schema": "sales", "source": "order_lines",
                  "select": {"columns": [{"name": "order_id"}, {"name": "quantity"}]}}],
                  "visual_settings": {"columns": {"order_id": {"type": "number"}, "quantity": {"type": "number"}}}},
                 "operation": "add", "join": {"table": "stock_levels", "schema": "inventory", "columns_to_add": ["reorder_level"]}}""");
        assertTrue(out.path("valid").asBoolean(), out.toString());
        JsonNode join = out.path("config").path("data_source").path(0).path("select").path("foreign_tables").path(0);
        assertEquals("stock_levels", join.path("table").asText(), out.toString());
        var compiled = dev.tablewright.sql.SqlCompiler.compile(
                dev.tablewright.codec.ConfigJson.read(out.path("config")).config(), catalog, 5);
        assertTrue(compiled.ok(), compiled.errors().toString());
        String sql = compiled.query().sql();
        assertTrue(sql.contains("\"warehouse_id\" = ") && sql.contains("\"item_id\" = ") && sql.contains(" AND "),
                "the ON clause pairs both columns of the key: " + sql);
    }
}
