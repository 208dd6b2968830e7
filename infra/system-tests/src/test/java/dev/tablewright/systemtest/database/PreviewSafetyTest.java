package dev.tablewright.systemtest.database;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.fakes.dynamodb.DynamoDbEngine;
import dev.tablewright.toolcontract.ToolOutcome;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hostile configs against the real PostgreSQL: every attempt is either refused with a field error or bound as data,
 * the database is unchanged afterwards (row counts and checksums of every table, and the list of relations), and no
 * statement of the tools outlives the statement timeout. A query that would scan for long is cut by the timeout.
 * Grounding errors name the closest real names.
 */
class PreviewSafetyTest {

    @RegisterExtension
    static final DynamoDbEngine ENGINE = DynamoDbEngine.dynamoDbLocal();

    static DatabaseToolsFixture fixture;

    static final List<String> HOSTILE = List.of(
            "'; DROP TABLE sales.orders; --",
            "x' OR '1'='1",
            "1); SELECT pg_sleep(30); --",
            "'); SELECT pg_sleep(30) --",
            "/* comment */ 1",
            "\\'; DROP TABLE core.users CASCADE; --",
            "$$; DROP SCHEMA sales CASCADE; $$",
            "%_!\\");

    @BeforeAll
    static void setUp() {
        fixture = new DatabaseToolsFixture(ENGINE, Duration.ofMillis(1500));
    }

    @AfterAll
    static void tearDown() {
        fixture.close();
    }

    /** A one-filter config on sales.orders; {@code %s} is the filter as JSON. */
    static String ordersWith(String filter) {
        return """
                {"name": "Orders", "data_source": [{"schema": "sales", "source": "orders",
                  "select": {"columns": [{"name": "id"}, {"name": "order_number"}, {"name": "notes"}, {"name": "status"},
                                         {"name": "total_amount"}, {"name": "created_at"}]},
                  "filters": [%s]}],
                 "visual_settings": {"columns": {"id": {"type": "number"}, "order_number": {"type": "string"},
                   "notes": {"type": "string"}, "status": {"type": "enum"}, "total_amount": {"type": "number"},
                   "created_at": {"type": "datetime", "format": "yyyy-MM-dd HH:mm"}}}}
                """.formatted(filter);
    }

    static String json(String s) {
        return dev.tablewright.json.Json.write(s);
    }

    @Test
    void hostileFilterValuesAreBoundAsDataOrRefusedOnTheirField() throws Exception {
        String before = fixture.fingerprint();
        List<String> problems = new ArrayList<>();
        for (String value : HOSTILE) {
            // On text: bound as data (a LIKE pattern with its wildcards escaped): valid, and matches nothing.
            for (String op : List.of("eq", "contains", "starts_with", "ends_with", "neq")) {
                JsonNode out = fixture.previewAnswer(ordersWith("{\"column\": \"order_number\", \"operator\": \"" + op
                        + "\", \"value\": " + json(value) + "}"), null);
                if (!out.path("valid").asBoolean()) {
                    problems.add(op + " " + value + " on text refused: " + out.path("errors"));
                } else if (!op.equals("neq") && out.path("rows").size() != 0) {
                    problems.add(op + " " + value + " on text matched rows: " + out.path("rows"));
                }
            }
            // On a number, an enum and a timestamp: PostgreSQL refuses the value; the error names the value's field.
            for (String column : List.of("total_amount", "status", "created_at")) {
                JsonNode out = fixture.previewAnswer(ordersWith("{\"column\": \"" + column + "\", \"operator\": \"eq\", \"value\": "
                        + json(value) + "}"), null);
                if (out.path("valid").asBoolean()) {
                    problems.add(column + " = " + value + " was accepted");
                } else if (!out.path("errors").path(0).path("field").asText().equals("data_source[0].filters[0].value")) {
                    problems.add(column + " = " + value + " error on the wrong field: " + out.path("errors"));
                }
            }
            // In a list: every element is a parameter.
            JsonNode in = fixture.previewAnswer(ordersWith("{\"column\": \"notes\", \"operator\": \"in\", \"value\": [\"a\", "
                    + json(value) + "]}"), null);
            if (!in.path("valid").asBoolean() || in.path("rows").size() != 0) {
                problems.add("in [a, " + value + "]: " + in);
            }
        }
        assertEquals(List.of(), problems);
        assertEquals(before, fixture.fingerprint(), "the database is unchanged");
        assertEquals(0, fixture.statementsOutlivingTheTimeout());
    }

    @Test
    void aValueWithQuotesIsFoundAsData() {
        // Order 50's notes: Customer's request: leave at dock 3; "fragile" -- handle with care
        JsonNode out = fixture.previewAnswer(ordersWith("{\"column\": \"notes\", \"operator\": \"contains\", \"value\": "
                + json("request: leave at dock 3; \"fragile\" --") + "}")
                .replace("]}],\n", "], \"sort\": [{\"column\": \"id\", \"direction\": \"asc\"}]}],\n"), null);
        assertTrue(out.path("valid").asBoolean(), out::toPrettyString);
        // Orders 50, 100, ..., 1500 carry it: 30 of them, so a full sample of 10 and more to come.
        assertTrue(out.path("sql").asText().contains("ORDER BY \"orders\".\"id\" ASC"), out.path("sql").asText());
        assertEquals(10, out.path("rows").size());
        assertTrue(out.path("more").asBoolean());
        assertEquals("50", out.path("rows").path(0).path("id").asText());
        out.path("rows").forEach(r -> assertTrue(r.path("notes").asText().contains("\"fragile\" --"), r.toString()));
    }

    @Test
    void hostileNamesAliasesLabelsAndOperatorsAreRefusedOrInert() throws Exception {
        String before = fixture.fingerprint();
        String drop = "x\"; DROP TABLE sales.orders; --";
        List<String> refused = List.of(
                // a column name
                ordersWith("").replace("{\"name\": \"notes\"}", "{\"name\": " + json("notes; DROP TABLE core.users") + "}")
                        .replace("\"notes\": {\"type\": \"string\"}", json("notes; DROP TABLE core.users") + ": {\"type\": \"string\"}"),
                // an alias
                ordersWith("").replace("{\"name\": \"notes\"}", "{\"name\": \"notes\", \"alias\": " + json(drop) + "}")
                        .replace("\"notes\": {\"type\": \"string\"}", json(drop) + ": {\"type\": \"string\"}"),
                // the base table and schema
                ordersWith("").replace("\"source\": \"orders\"", "\"source\": " + json("orders; SELECT pg_sleep(30)")),
                ordersWith("").replace("\"schema\": \"sales\"", "\"schema\": " + json("sales\" CASCADE --")),
                // an operator and a sort direction
                ordersWith("{\"column\": \"id\", \"operator\": \"eq 1 OR 1=1; --\", \"value\": 1}"),
                ordersWith("").replace("\"filters\": []", "\"filters\": [], \"sort\": [{\"column\": \"id\", \"direction\": \"desc; DROP TABLE sales.orders\"}]"),
                // a filter column carrying SQL
                ordersWith("{\"column\": \"id) OR (1=1\", \"operator\": \"eq\", \"value\": 1}"),
                // a join whose relationship carries SQL
                """
                {"name": "J", "data_source": [{"schema": "sales", "source": "orders",
                  "select": {"columns": [{"name": "id"}, {"name": "email", "table": "u"}],
                    "foreign_tables": [{"schema": "core", "table": "users", "alias": "u", "join_type": "LEFT",
                      "relationship_from": "orders.created_by OR 1=1 --", "relationship_to": "u.id"}]}}],
                 "visual_settings": {"columns": {"id": {"type": "number"}, "email": {"type": "string"}}}}
                """,
                // a join type carrying SQL
                """
                {"name": "J", "data_source": [{"schema": "sales", "source": "orders",
                  "select": {"columns": [{"name": "id"}, {"name": "email", "table": "u"}],
                    "foreign_tables": [{"schema": "core", "table": "users", "alias": "u", "join_type": "LEFT JOIN pg_sleep(30) ON true LEFT",
                      "relationship_from": "orders.created_by", "relationship_to": "u.id"}]}}],
                 "visual_settings": {"columns": {"id": {"type": "number"}, "email": {"type": "string"}}}}
                """);
        List<String> problems = new ArrayList<>();
        for (String config : refused) {
            ToolOutcome outcome = fixture.preview(config, null);
            JsonNode out = assertInstanceOf(ToolOutcome.Ok.class, outcome).output();
            if (out == null || out.path("valid").asBoolean() || out.path("errors").isEmpty()
                    || out.path("errors").path(0).path("field").asText().isEmpty()) {
                problems.add("not refused with a field error: " + config + " -> " + outcome);
            }
        }
        // A label and a description never reach SQL: the preview is valid.
        JsonNode labelled = fixture.previewAnswer(ordersWith("{\"column\": \"id\", \"operator\": \"eq\", \"value\": 7, \"label\": "
                + json(drop) + "}"), "'; DROP TABLE sales.orders; --");
        assertTrue(labelled.path("valid").asBoolean(), labelled::toPrettyString);
        assertFalse(labelled.path("sql").asText().contains("DROP"), labelled.path("sql").asText());
        assertEquals(List.of(), problems);
        assertEquals(before, fixture.fingerprint(), "the database is unchanged");
        assertEquals(0, fixture.statementsOutlivingTheTimeout());
    }

    @Test
    void aLongScanIsCutByTheStatementTimeoutWithAClearError() throws Exception {
        // analytics.calendar_minutes is every minute of a century (52 million rows, generated in a view).
        JsonNode out = fixture.previewAnswer("""
                {"name": "Calendar", "data_source": [{"schema": "analytics", "source": "calendar_minutes",
                  "select": {"columns": [{"name": "minute"}, {"name": "hour_of_day"}]},
                  "filters": [{"column": "hour_of_day", "operator": "eq", "value": 25}],
                  "sort": [{"column": "minute", "direction": "desc"}]}],
                 "visual_settings": {"columns": {"minute": {"type": "datetime", "format": "yyyy-MM-dd HH:mm"},
                   "hour_of_day": {"type": "number"}}}}
                """, null);
        assertFalse(out.path("valid").asBoolean(), out::toPrettyString);
        String message = out.path("errors").path(0).path("message").asText();
        assertTrue(message.contains("statement timeout (1500 ms)"), message);
        assertTrue(out.path("sql").asText().contains("\"analytics\".\"calendar_minutes\""));
        assertEquals(0, fixture.statementsOutlivingTheTimeout());
        // The connection is usable afterwards.
        JsonNode next = fixture.previewAnswer(ordersWith("{\"column\": \"id\", \"operator\": \"eq\", \"value\": 7}"), null);
        assertTrue(next.path("valid").asBoolean(), next::toPrettyString);
        assertEquals("7", next.path("rows").path(0).path("id").asText());
    }

    @Test
    void theRunnerRefusesWritesAndStopsSleepsEvenForSqlTheCompilerWouldNeverWrite() throws Exception {
        String before = fixture.fingerprint();
        dev.tablewright.sql.SampleRunner runner = fixture.databases.find("default").orElseThrow().runner();
        dev.tablewright.schema.ColumnInfo id = new dev.tablewright.schema.ColumnInfo("id", "bigint", false, true, null, false);
        List<dev.tablewright.grounding.ResultColumn> columns = List.of(new dev.tablewright.grounding.ResultColumn("id", "d", id));
        dev.tablewright.sql.CompiledQuery delete = new dev.tablewright.sql.CompiledQuery(
                "WITH d AS (DELETE FROM sales.order_lines RETURNING order_id AS id) SELECT id FROM d LIMIT 11",
                List.of(), columns, 10, List.of());
        dev.tablewright.sql.QueryFailure refused = org.junit.jupiter.api.Assertions.assertThrows(
                dev.tablewright.sql.QueryFailure.class, () -> runner.planAndSample(delete));
        assertEquals("25006", refused.sqlState(), "read_only_sql_transaction");
        dev.tablewright.sql.CompiledQuery sleep = new dev.tablewright.sql.CompiledQuery(
                "SELECT 1::bigint AS id FROM pg_sleep(30) LIMIT 11", List.of(), columns, 10, List.of());
        dev.tablewright.sql.QueryFailure cut = org.junit.jupiter.api.Assertions.assertThrows(
                dev.tablewright.sql.QueryFailure.class, () -> runner.planAndSample(sleep));
        assertEquals(dev.tablewright.sql.QueryFailure.Kind.TIMEOUT, cut.kind());
        assertEquals(before, fixture.fingerprint(), "the database is unchanged");
        assertEquals(0, fixture.statementsOutlivingTheTimeout());
    }

    @Test
    void aPlanningErrorIsAnErrorOnTheFilterOrSortItComesFrom() throws Exception {
        // json has neither an equality nor an ordering operator: only the planner can tell.
        try (java.sql.Connection c = fixture.url.connect(); java.sql.Statement st = c.createStatement()) {
            st.execute("DROP SCHEMA IF EXISTS planner_it CASCADE; CREATE SCHEMA planner_it; "
                    + "CREATE TABLE planner_it.things (id int PRIMARY KEY, label text, attributes json); "
                    + "INSERT INTO planner_it.things VALUES (1, 'a', '{\"x\": 1}')");
        }
        try (dev.tablewright.postgres.PostgresDatabases planner = new dev.tablewright.postgres.PostgresDatabases(
                java.util.Map.of("default", fixture.url::connect), List.of("planner_it"), Duration.ofSeconds(5), Duration.ofSeconds(60))) {
            dev.tablewright.tools.PreviewTableConfigTool tool = new dev.tablewright.tools.PreviewTableConfigTool(planner,
                    fixture.previews, null, java.time.Clock.systemUTC(), 10, Duration.ofHours(1));
            String config = """
                    {"name": "Things", "data_source": [{"schema": "planner_it", "source": "things",
                      "select": {"columns": [{"name": "id"}, {"name": "label"}, {"name": "attributes"}]},
                      "filters": [{"column": "label", "operator": "eq", "value": "a"}%s]%s}],
                     "visual_settings": {"columns": {"id": {"type": "number"}, "label": {"type": "string"},
                       "attributes": {"type": "string"}}}}
                    """;
            JsonNode filter = run(tool, config.formatted(
                    ", {\"column\": \"attributes\", \"operator\": \"eq\", \"value\": \"{}\"}", ""));
            assertFalse(filter.path("valid").asBoolean(), filter::toPrettyString);
            assertEquals("data_source[0].filters[1]", filter.path("errors").path(0).path("field").asText(), filter.toString());
            assertTrue(filter.path("errors").path(0).path("message").asText().contains("could not plan"), filter.toString());

            JsonNode sort = run(tool, config.formatted("",
                    ", \"sort\": [{\"column\": \"id\", \"direction\": \"asc\"}, {\"column\": \"attributes\", \"direction\": \"desc\"}]"));
            assertFalse(sort.path("valid").asBoolean(), sort::toPrettyString);
            assertEquals("data_source[0].sort[1]", sort.path("errors").path(0).path("field").asText(), sort.toString());
        } finally {
            try (java.sql.Connection c = fixture.url.connect(); java.sql.Statement st = c.createStatement()) {
                st.execute("DROP SCHEMA IF EXISTS planner_it CASCADE");
            }
        }
    }

    private static JsonNode run(dev.tablewright.tools.PreviewTableConfigTool tool, String config) {
        com.fasterxml.jackson.databind.node.ObjectNode args = dev.tablewright.json.Json.object();
        args.set("config", DatabaseToolsFixture.parse(config));
        ToolOutcome outcome = tool.execute(new dev.tablewright.toolcontract.ToolInvocation("preview_table_config", "call_1", "c_1",
                DatabaseToolsFixture.OWNER, args, java.util.Map.of()));
        return assertInstanceOf(ToolOutcome.Ok.class, outcome, outcome::toString).output();
    }

    @Test
    void groundingErrorsNameTheClosestRealNames() {
        JsonNode table = fixture.previewAnswer(ordersWith("").replace("\"source\": \"orders\"", "\"source\": \"order\""), null);
        assertError(table, "data_source[0].source", "orders");
        JsonNode schema = fixture.previewAnswer(ordersWith("").replace("\"schema\": \"sales\"", "\"schema\": \"sale\""), null);
        assertError(schema, "data_source[0].schema", "sales");
        JsonNode elsewhere = fixture.previewAnswer(ordersWith("").replace("\"schema\": \"sales\"", "\"schema\": \"core\""), null);
        assertError(elsewhere, "data_source[0].source", "It is in schema 'sales'");
        JsonNode column = fixture.previewAnswer(ordersWith("").replace("{\"name\": \"notes\"}", "{\"name\": \"note\"}")
                .replace("\"notes\": {", "\"note\": {"), null);
        assertError(column, "data_source[0].select.columns[2].name", "notes");
        JsonNode joined = fixture.previewAnswer("""
                {"name": "J", "data_source": [{"schema": "sales", "source": "orders",
                  "select": {"columns": [{"name": "id"}, {"name": "frist_name", "table": "creator"}],
                    "foreign_tables": [{"schema": "core", "table": "users", "alias": "creator", "join_type": "LEFT",
                      "relationship_from": "orders.created_by", "relationship_to": "creator.id"}]}}],
                 "visual_settings": {"columns": {"id": {"type": "number"}, "frist_name": {"type": "string"}}}}
                """, null);
        assertError(joined, "data_source[0].select.columns[1].name", "first_name");
        JsonNode notAKey = fixture.previewAnswer("""
                {"name": "J", "data_source": [{"schema": "sales", "source": "orders",
                  "select": {"columns": [{"name": "id"}, {"name": "email", "table": "u"}],
                    "foreign_tables": [{"schema": "core", "table": "users", "alias": "u", "join_type": "LEFT",
                      "relationship_from": "orders.customer_id", "relationship_to": "u.id"}]}}],
                 "visual_settings": {"columns": {"id": {"type": "number"}, "email": {"type": "string"}}}}
                """, null);
        assertError(notAKey, "data_source[0].select.foreign_tables[0].relationship_from", "orders.approved_by -> users.id");
    }

    private static void assertError(JsonNode out, String field, String mentions) {
        assertFalse(out.path("valid").asBoolean(), out::toPrettyString);
        JsonNode e = out.path("errors").path(0);
        assertEquals(field, e.path("field").asText(), out.path("errors").toString());
        assertTrue(e.path("message").asText().contains(mentions), e.path("message").asText());
    }
}
