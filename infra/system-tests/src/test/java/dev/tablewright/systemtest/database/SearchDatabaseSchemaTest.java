package dev.tablewright.systemtest.database;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.json.Json;
import dev.tablewright.postgres.DatabaseUrl;
import dev.tablewright.postgres.PostgresDatabases;
import dev.tablewright.toolcontract.FieldType;
import dev.tablewright.toolcontract.InputField;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.tools.SearchDatabaseSchemaTool;
import dev.tablewright.userinput.UserInputGate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** search_database_schema on the sample database, with one data source and with two (production, staging). */
class SearchDatabaseSchemaTest {

    static PostgresDatabases one;
    static PostgresDatabases two;

    @BeforeAll
    static void setUp() {
        DatabaseUrl url = DatabaseTestSupport.database();
        one = new PostgresDatabases(Map.of("default", url::connect), DatabaseToolsFixture.SCHEMAS, Duration.ofSeconds(5), Duration.ofSeconds(60));
        Map<String, dev.tablewright.postgres.ConnectionSource> named = new LinkedHashMap<>();
        named.put("production", url::connect);
        named.put("staging", url::connect);
        two = new PostgresDatabases(named, List.of("sales"), Duration.ofSeconds(5), Duration.ofSeconds(60));
    }

    @AfterAll
    static void tearDown() {
        one.close();
        two.close();
    }

    static ToolOutcome search(PostgresDatabases databases, String args, Map<String, String> session) {
        ObjectNode arguments = (ObjectNode) DatabaseToolsFixture.parse(args);
        return new SearchDatabaseSchemaTool(databases).execute(new ToolInvocation("search_database_schema", "call_1", "c_1",
                "u_1", arguments, session));
    }

    /** The search's answer, which must be an ok one. */
    static JsonNode searchAnswer(PostgresDatabases databases, String args, Map<String, String> session) {
        ToolOutcome outcome = search(databases, args, session);
        return assertInstanceOf(ToolOutcome.Ok.class, outcome, outcome::toString).output();
    }

    @Test
    void pagesThroughEveryTableWithRelationshipsButNoColumns() {
        JsonNode first = searchAnswer(one, "{\"page_size\": 5}", Map.of());
        assertEquals(9, first.path("total").asInt());
        assertEquals(5, first.path("tables").size());
        assertTrue(first.path("hasMore").asBoolean());
        assertTrue(first.path("tables").path(0).path("columns").isMissingNode());
        JsonNode second = searchAnswer(one, "{\"page_size\": 5, \"page\": 2}", Map.of());
        assertEquals(4, second.path("tables").size());
        assertFalse(second.path("hasMore").asBoolean());
        JsonNode users = searchAnswer(one, "{\"schema\": \"core\", \"name\": \"users\"}", Map.of()).path("tables").path(0);
        assertEquals("users", users.path("name").asText());
        assertEquals(List.of("(reports_to) -> core.users(id)"), strings(users.path("references")));
        assertEquals(List.of("core.users(reports_to) -> (id)", "core.warehouses(manager_id) -> (id)",
                "sales.orders(approved_by) -> (id)", "sales.orders(created_by) -> (id)"), strings(users.path("referencedBy")));
    }

    @Test
    void aNameFragmentMatchesTablesAndColumns() {
        JsonNode out = searchAnswer(one, "{\"name\": \"APPROVED\"}", Map.of());
        assertEquals(1, out.path("total").asInt());
        assertEquals("orders", out.path("tables").path(0).path("name").asText());
        assertEquals(List.of("approved_by", "approved_at"), strings(out.path("tables").path(0).path("matchingColumns")));
    }

    @Test
    void oneTableComesWithItsColumnsAndTheMultiColumnKey() {
        JsonNode table = searchAnswer(one, "{\"schema\": \"inventory\", \"table\": \"stock_levels\"}", Map.of()).path("tables").path(0);
        assertEquals(List.of("warehouse_id", "item_id"), strings(table.path("primaryKey")));
        assertEquals("timestamp without time zone", table.path("columns").path(4).path("type").asText());
        assertTrue(table.path("columns").path(4).path("nullable").asBoolean());
        assertEquals(List.of("sales.order_lines(warehouse_id, item_id) -> (warehouse_id, item_id)"), strings(table.path("referencedBy")));
    }

    @Test
    void unknownNamesAreErrorsNamingTheClosest() {
        ToolOutcome table = search(one, "{\"schema\": \"sales\", \"table\": \"order\"}", Map.of());
        assertEquals(ErrorCode.NOT_FOUND, assertInstanceOf(ToolOutcome.Failed.class, table).error().code());
        assertTrue(assertInstanceOf(ToolOutcome.Failed.class, table).error().message().contains("orders"), assertInstanceOf(ToolOutcome.Failed.class, table).error().message());
        ToolOutcome schema = search(one, "{\"schema\": \"inventroy\"}", Map.of());
        assertTrue(assertInstanceOf(ToolOutcome.Failed.class, schema).error().message().contains("inventory"), assertInstanceOf(ToolOutcome.Failed.class, schema).error().message());
    }

    @Test
    void withSeveralDataSourcesTheDatabaseIsAskedForAndSavedForTheSession() {
        SearchDatabaseSchemaTool tool = new SearchDatabaseSchemaTool(two);
        var requirement = tool.definition().requiresUserInput();
        assertTrue(requirement.saveForSession());
        InputField field = requirement.fields().get(0);
        assertEquals("database", field.name());
        assertEquals(FieldType.SELECT, field.type());
        assertEquals(List.of("production", "staging"), field.options());
        assertEquals(List.of("production", "staging"),
                strings(tool.definition().parameters().path("properties").path("database").path("enum")));
        assertNull(new SearchDatabaseSchemaTool(one).definition().requiresUserInput(), "one data source: nothing to ask");

        ToolOutcome asked = search(two, "{}", Map.of());
        assertEquals(ToolOutcome.Status.NEEDS_INPUT, asked.status());
        assertEquals(List.of("production", "staging"), assertInstanceOf(ToolOutcome.NeedsInput.class, asked).request().fields().get(0).options());

        // The user-input gate asks the same, and merges a saved value into the arguments.
        ObjectNode none = Json.object();
        ToolInvocation bare = new ToolInvocation("search_database_schema", "call_2", "c_1", "u_1", none, Map.of());
        Optional<ToolOutcome> gated = UserInputGate.INSTANCE.check(tool.definition(), bare);
        assertEquals(ToolOutcome.Status.NEEDS_INPUT, gated.orElseThrow().status());
        UserInputGate.Decision decision = UserInputGate.INSTANCE.decide(tool.definition(), none, Map.of("database", "staging"));
        ObjectNode merged = ((UserInputGate.Proceed) decision).arguments();
        assertEquals("staging", merged.path("database").asText());

        JsonNode staging = searchAnswer(two, "{}", Map.of("database", "staging"));
        assertEquals("staging", staging.path("database").asText());
        assertEquals(List.of("sales"), strings(staging.path("schemas")), "the staging source's own allow-list");
        JsonNode production = searchAnswer(two, "{\"database\": \"production\"}", Map.of());
        assertEquals("production", production.path("database").asText());
        ToolOutcome unknown = search(two, "{\"database\": \"prod'; --\"}", Map.of());
        assertEquals(ErrorCode.INVALID_ARGUMENTS, assertInstanceOf(ToolOutcome.Failed.class, unknown).error().code());
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new java.util.ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
