package dev.tablewright.systemtest.database;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.codec.ConfigJson;
import dev.tablewright.config.TableConfig;
import dev.tablewright.configstore.StoredConfig;
import dev.tablewright.fakes.dynamodb.DynamoDbEngine;
import dev.tablewright.fakes.sampledb.SampleDatabaseConfigs;
import dev.tablewright.preview.PendingPreview;
import dev.tablewright.preview.PreviewStatus;
import dev.tablewright.toolcontract.ToolOutcome;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** preview_table_config end to end: the sample database on PostgreSQL, the stores on DynamoDB Local. */
class PreviewTableConfigTest {

    @RegisterExtension
    static final DynamoDbEngine ENGINE = DynamoDbEngine.dynamoDbLocal();

    static DatabaseToolsFixture fixture;

    /** What {@link SampleDatabaseConfigs#THREE_JOINS} means, written by hand. */
    static final String HAND_WRITTEN = """
            SELECT o.id, o.order_number, o.status::text, o.total_amount, to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI'),
                   c.name, c.country, uc.first_name, ua.last_name
            FROM sales.orders o
            JOIN sales.customers c ON c.id = o.customer_id
            LEFT JOIN core.users uc ON uc.id = o.created_by
            LEFT JOIN core.users ua ON ua.id = o.approved_by
            WHERE o.status IN ('approved', 'shipped') AND o.total_amount >= 1000 AND c.country = 'DE'
            ORDER BY o.total_amount DESC, o.id ASC
            LIMIT 10
            """;

    @BeforeAll
    static void setUp() {
        fixture = new DatabaseToolsFixture(ENGINE, Duration.ofSeconds(5));
    }

    @AfterAll
    static void tearDown() {
        fixture.close();
    }

    @Test
    void threeJoinsFilteredAndSortedReturnExactlyTheRowsOfTheHandWrittenQuery() throws Exception {
        ToolOutcome outcome = fixture.preview(SampleDatabaseConfigs.THREE_JOINS, "Big approved orders in Germany");
        assertEquals(ToolOutcome.Status.OK, outcome.status(), () -> outcome.toString());
        JsonNode out = assertInstanceOf(ToolOutcome.Ok.class, outcome).output();
        assertTrue(out.path("valid").asBoolean(), () -> out.toPrettyString());

        List<List<String>> expected = new ArrayList<>();
        try (Connection c = fixture.url.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(HAND_WRITTEN)) {
            java.text.DecimalFormat money = new java.text.DecimalFormat("#,##0.00", java.text.DecimalFormatSymbols.getInstance(java.util.Locale.ROOT));
            while (rs.next()) {
                expected.add(java.util.Arrays.asList(rs.getString(1), rs.getString(2), rs.getString(3),
                        money.format(rs.getBigDecimal(4)), rs.getString(5), rs.getString(6), rs.getString(7),
                        rs.getString(8), rs.getString(9)));
            }
        }
        assertTrue(expected.size() >= 5, "the hand-written query finds rows: " + expected.size());
        List<List<String>> actual = new ArrayList<>();
        for (JsonNode row : out.path("rows")) {
            List<String> values = new ArrayList<>();
            for (String key : List.of("id", "order_number", "status", "total_amount", "created_at", "customer_name",
                    "country", "creator_first_name", "approver_last_name")) {
                values.add(row.path(key).isNull() ? null : row.path(key).asText());
            }
            actual.add(values);
        }
        assertEquals(expected, actual);
        assertTrue(out.path("more").asBoolean(), "there are more than 10 such orders");

        String sql = out.path("sql").asText();
        assertTrue(sql.contains("LEFT JOIN \"core\".\"users\" AS \"users_created_by\""), sql);
        assertTrue(sql.contains("LEFT JOIN \"core\".\"users\" AS \"users_approved_by\""), sql);
        assertFalse(sql.contains("'DE'") || sql.contains("approved'"), "values are parameters, not SQL text: " + sql);
        assertEquals(List.of("approved", "shipped", "1000", "DE"),
                Json_list(out.path("parameters")));
        assertTrue(out.path("plan").path("summary").asText().contains("Scan"), out.path("plan").toString());
    }

    @Test
    void storesAPendingPreviewWithItsDiffAndBaseVersion() {
        TableConfig saved = ConfigJson.read(DatabaseToolsFixture.parse("""
                {"name": "Orders", "data_source": [{"schema": "sales", "source": "orders",
                  "select": {"columns": [{"name": "id"}, {"name": "status"}]}}],
                 "visual_settings": {"columns": {"id": {"type": "number"}, "status": {"type": "enum"}}}}
                """)).config();
        StoredConfig stored = fixture.configs.create(DatabaseToolsFixture.OWNER, saved, Instant.now());
        String proposed = """
                {"id": "%s", "version": %d, "name": "Orders", "data_source": [{"schema": "sales", "source": "orders",
                  "select": {"columns": [{"name": "id"}, {"name": "status"}, {"name": "due_date"}]},
                  "filters": [{"column": "status", "operator": "eq", "value": "open"}]}],
                 "visual_settings": {"columns": {"id": {"type": "number"}, "status": {"type": "enum", "hidden": true},
                   "due_date": {"type": "date", "format": "dd.MM.yyyy"}}}}
                """.formatted(stored.configId(), stored.version());
        JsonNode out = fixture.previewAnswer(proposed, null);
        assertTrue(out.path("valid").asBoolean(), () -> out.toPrettyString());
        assertTrue(out.path("isUpdate").asBoolean());
        assertEquals(stored.configId(), out.path("configId").asText());
        assertEquals(stored.version(), out.path("baseVersion").asLong());
        JsonNode diff = out.path("diff");
        assertEquals("[\"due_date\"]", diff.path("columns").path("added").toString());
        assertEquals("status", diff.path("columns").path("changed").path(0).path("key").asText());
        assertEquals("[\"hidden: false -> true\"]", diff.path("columns").path("changed").path(0).path("changes").toString());
        assertEquals("[\"status eq\"]", diff.path("filters").path("added").toString());
        for (JsonNode row : out.path("rows")) {
            assertEquals("open", row.path("status").asText());
            assertTrue(row.path("due_date").isNull() || row.path("due_date").asText().matches("\\d{2}\\.\\d{2}\\.\\d{4}"), row.toString());
        }

        PendingPreview pending = fixture.previews.find(DatabaseToolsFixture.OWNER, out.path("previewId").asText()).orElseThrow();
        assertEquals(PreviewStatus.PENDING, pending.status());
        assertEquals(stored.configId(), pending.configId());
        assertEquals(stored.version(), pending.baseVersion());
        assertEquals("c_database_it", pending.conversationId());
        assertNotNull(pending.summary().path("sql").asText(null));
        assertTrue(fixture.previews.find("someone_else", pending.previewId()).isEmpty(), "owner isolation");
    }

    /** The chat's Invoke can run one call twice (the SDK retries it after a lost answer): one preview, answered twice. */
    @Test
    void oneCallRunTwiceSavesOnePreviewAndAnswersIt() {
        var args = (com.fasterxml.jackson.databind.node.ObjectNode) DatabaseToolsFixture.parse(
                "{\"description\": \"once\", \"config\": " + SampleDatabaseConfigs.THREE_JOINS + "}");
        String call = "call_twice_" + System.nanoTime();
        JsonNode first = assertInstanceOf(ToolOutcome.Ok.class, fixture.preview(args, call)).output();
        JsonNode second = assertInstanceOf(ToolOutcome.Ok.class, fixture.preview(args, call)).output();
        assertTrue(first.path("valid").asBoolean(), first::toPrettyString);
        assertEquals(first.path("previewId"), second.path("previewId"), "the same preview");
        assertEquals(first.path("expiresAt"), second.path("expiresAt"), "as first stored");
        JsonNode another = assertInstanceOf(ToolOutcome.Ok.class, fixture.preview(args, call + "_next")).output();
        assertNotEquals(first.path("previewId"), another.path("previewId"), "another call is another preview");
        assertEquals(PreviewStatus.PENDING, fixture.previews.find(DatabaseToolsFixture.OWNER, first.path("previewId").asText())
                .orElseThrow().status());
    }

    /**
     * A PostgreSQL backend terminated between two calls of a turn (an operator's pg_terminate_backend, a failover):
     * the next read-only call reopens the connection once and answers; no connection is left behind.
     */
    @Test
    void aTerminatedBackendIsReopenedOnceForTheNextCallAndNothingLeaks() throws Exception {
        assertTrue(fixture.previewAnswer(SampleDatabaseConfigs.THREE_JOINS, "before").path("valid").asBoolean());
        try (Connection c = fixture.url.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                     + "WHERE application_name = '" + DatabaseToolsFixture.APPLICATION + "' AND pid <> pg_backend_pid()) t")) {
            rs.next();
            assertTrue(rs.getInt(1) >= 1, "the tools' backend was terminated");
        }
        JsonNode after = fixture.previewAnswer(SampleDatabaseConfigs.THREE_JOINS, "after");
        assertTrue(after.path("valid").asBoolean(), after::toPrettyString);
        try (Connection c = fixture.url.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE application_name = '"
                     + DatabaseToolsFixture.APPLICATION + "'")) {
            rs.next();
            assertTrue(rs.getInt(1) <= 2, "one connection per data source, the broken one not kept: " + rs.getInt(1));
        }
    }

    @Test
    void aNewConfigIsPreviewedOnTheCreatePath() {
        JsonNode out = fixture.previewAnswer("""
                {"name": "Items", "data_source": [{"schema": "inventory", "source": "items",
                  "select": {"columns": [{"name": "sku"}, {"name": "unit_price"}, {"name": "discontinued"}]},
                  "sort": [{"column": "sku", "direction": "asc"}]}],
                 "visual_settings": {"columns": {"sku": {"type": "string"}, "unit_price": {"type": "number", "format": "0.00"},
                   "discontinued": {"type": "boolean", "format": "yes_no"}}}}
                """, "A list of items");
        assertTrue(out.path("valid").asBoolean(), () -> out.toPrettyString());
        assertFalse(out.path("isUpdate").asBoolean());
        assertTrue(out.path("configId").isNull());
        assertTrue(out.path("baseVersion").isNull());
        assertEquals("SKU-00001", out.path("rows").path(0).path("sku").asText());
        assertEquals("No", out.path("rows").path(0).path("discontinued").asText());
        assertEquals("[\"sku\",\"unit_price\",\"discontinued\"]", out.path("diff").path("columns").path("added").toString());
        PendingPreview pending = fixture.previews.find(DatabaseToolsFixture.OWNER, out.path("previewId").asText()).orElseThrow();
        assertTrue(pending.createsConfig());
    }

    @Test
    void aMultiColumnKeyIsJoinedOnAllItsColumns() throws Exception {
        JsonNode out = fixture.previewAnswer("""
                {"name": "Lines with stock", "data_source": [{"schema": "sales", "source": "order_lines",
                  "select": {"columns": [{"name": "order_id"}, {"name": "line_no"}, {"name": "quantity", "table": "stock_levels", "alias": "in_stock"}],
                    "foreign_tables": [{"schema": "inventory", "table": "stock_levels", "join_type": "INNER",
                      "relationship_from": "order_lines.item_id", "relationship_to": "stock_levels.item_id"}]},
                  "filters": [{"column": "order_id", "operator": "between", "value": [10, 12]}],
                  "sort": [{"column": "order_id", "direction": "asc"}, {"column": "line_no", "direction": "asc"}]}],
                 "visual_settings": {"columns": {"order_id": {"type": "number"}, "line_no": {"type": "number"}, "in_stock": {"type": "number"}}}}
                """, null);
        assertTrue(out.path("valid").asBoolean(), () -> out.toPrettyString());
        assertTrue(out.path("sql").asText().contains("\"order_lines\".\"warehouse_id\" = \"stock_levels\".\"warehouse_id\" AND \"order_lines\".\"item_id\" = \"stock_levels\".\"item_id\""),
                out.path("sql").asText());
        assertTrue(out.path("warnings").toString().contains("2 columns"), out.path("warnings").toString());
        List<String> expected = new ArrayList<>();
        try (Connection c = fixture.url.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("""
                SELECT l.order_id || '/' || l.line_no || '/' || s.quantity FROM sales.order_lines l
                JOIN inventory.stock_levels s ON s.warehouse_id = l.warehouse_id AND s.item_id = l.item_id
                WHERE l.order_id BETWEEN 10 AND 12 ORDER BY l.order_id, l.line_no LIMIT 10""")) {
            while (rs.next()) {
                expected.add(rs.getString(1));
            }
        }
        List<String> actual = new ArrayList<>();
        out.path("rows").forEach(r -> actual.add(r.path("order_id").asText() + "/" + r.path("line_no").asText() + "/" + r.path("in_stock").asText()));
        assertEquals(expected, actual);
    }

    @Test
    void aDateRangeOnATimestampIncludesTheWholeLastDay() {
        JsonNode out = fixture.previewAnswer("""
                {"name": "January orders", "data_source": [{"schema": "sales", "source": "orders",
                  "select": {"columns": [{"name": "id"}, {"name": "created_at"}]},
                  "filters": [{"column": "created_at", "operator": "between", "value": ["2024-01-02", "2024-01-02"]}],
                  "sort": [{"column": "created_at", "direction": "desc"}]}],
                 "visual_settings": {"columns": {"id": {"type": "number"}, "created_at": {"type": "datetime", "format": "yyyy-MM-dd HH:mm"}}}}
                """, null);
        assertTrue(out.path("valid").asBoolean(), () -> out.toPrettyString());
        // Orders are 5h17m apart from 2024-01-01 08:00 UTC: on 2024-01-02 at 05:08, 10:25, 15:42 and 20:59 (which a
        // plain BETWEEN of two dates would miss: it would end at midnight).
        assertEquals(4, out.path("rows").size(), out.path("rows").toString());
        assertEquals("2024-01-02 20:59", out.path("rows").path(0).path("created_at").asText(), out.path("rows").toString());
        out.path("rows").forEach(r -> assertTrue(r.path("created_at").asText().startsWith("2024-01-02"), r.toString()));
    }

    private static List<String> Json_list(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
