package dev.tablewright.systemtest.database;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.functions.tools.ApplyColumnChangeFunction;
import dev.tablewright.json.Json;
import dev.tablewright.lambda.Env;
import dev.tablewright.postgres.DatabaseUrl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The operation tool handlers as Lambda builds them (no-arg constructor, environment): with a database configured
 * they ground names against the sample database; without one they run ungrounded and say so.
 */
class GroundedToolFunctionsTest {

    /** Adds a misspelt column of sales.orders ({@code order_numbr}). */
    private static final String EVENT = """
            {"tool": "apply_column_change", "toolCallId": "call_1", "conversationId": "conv_g", "userId": "dev-user",
             "arguments": {
               "config": {"id": "cfg_g", "name": "Orders", "version": 1,
                          "data_source": [{"schema": "sales", "source": "orders", "select": {"columns": [{"name": "id"}]}}],
                          "visual_settings": {"columns": {"id": {"header": "ID"}}}},
               "operation": "add",
               "columns": [{"name": "order_numbr"}]},
             "sessionValues": {}}
            """;

    @AfterEach
    void clear() {
        Env.clearOverrides();
    }

    private static JsonNode answer() throws Exception {
        byte[] out = new ApplyColumnChangeFunction().answer(new ByteArrayInputStream(EVENT.getBytes(StandardCharsets.UTF_8)), "req-1");
        JsonNode json = Json.parse(new String(out, StandardCharsets.UTF_8));
        assertEquals("ok", json.path("status").asText(), json::toPrettyString);
        return json.path("output");
    }

    @Test
    void withADatabaseAnUnknownColumnIsAnErrorNamingTheClosestRealOne() throws Exception {
        DatabaseUrl url = DatabaseTestSupport.database();
        String jdbc = url.jdbcUrl();
        if (url.user() != null) {
            jdbc += (jdbc.contains("?") ? "&" : "?") + "user=" + URLEncoder.encode(url.user(), StandardCharsets.UTF_8)
                    + (url.password() == null ? "" : "&password=" + URLEncoder.encode(url.password(), StandardCharsets.UTF_8));
        }
        Env.override(Map.of("DATABASE_URL", jdbc, "DATA_SOURCES", "", "DATABASE_SECRET_ARN", ""));
        JsonNode out = answer();
        assertFalse(out.path("valid").asBoolean(), out::toPrettyString);
        String errors = out.path("errors").toString();
        assertTrue(errors.contains("order_numbr") && errors.contains("order_number"), errors);
        assertFalse(out.path("warnings").toString().contains("no schema catalogue"), out::toPrettyString);
    }

    @Test
    void withoutADatabaseTheToolRunsUngroundedAndSaysSo() throws Exception {
        Env.override(Map.of("DATABASE_URL", "", "DATA_SOURCES", "", "DATABASE_SECRET_ARN", ""));
        JsonNode out = answer();
        assertTrue(out.path("valid").asBoolean(), out::toPrettyString);
        assertTrue(out.path("warnings").toString().contains("no schema catalogue"), out::toPrettyString);
    }

    @Test
    void anUnreadableDatabaseConfigurationLeavesTheToolUngrounded() throws Exception {
        Env.override(Map.of("DATA_SOURCES", "{not json", "DATABASE_URL", "", "DATABASE_SECRET_ARN", ""));
        JsonNode out = answer();
        assertTrue(out.path("valid").asBoolean(), out::toPrettyString);
        assertTrue(out.path("warnings").toString().contains("no schema catalogue"), out::toPrettyString);
    }
}
