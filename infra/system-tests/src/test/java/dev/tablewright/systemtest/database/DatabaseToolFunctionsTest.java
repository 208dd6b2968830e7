package dev.tablewright.systemtest.database;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.functions.configs.PreviewTableConfigFunction;
import dev.tablewright.functions.configs.SearchDatabaseSchemaFunction;
import dev.tablewright.fakes.dynamodb.DynamoDbEngine;
import dev.tablewright.fakes.template.SamTemplate;
import dev.tablewright.json.Json;
import dev.tablewright.lambda.Env;
import dev.tablewright.lambda.ToolFunction;
import dev.tablewright.postgres.DatabaseUrl;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayInputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The two Lambda handlers as Lambda runs them (no-arg constructor, environment, bytes in and out) with the sample
 * events of infra/events, on the sample database and DynamoDB Local.
 */
class DatabaseToolFunctionsTest {

    @RegisterExtension
    static final DynamoDbEngine ENGINE = DynamoDbEngine.dynamoDbLocal();

    @BeforeAll
    static void environment() {
        DatabaseUrl url = DatabaseTestSupport.database();
        String jdbc = url.jdbcUrl();
        if (url.user() != null) {
            jdbc += (jdbc.contains("?") ? "&" : "?") + "user=" + URLEncoder.encode(url.user(), StandardCharsets.UTF_8)
                    + (url.password() == null ? "" : "&password=" + URLEncoder.encode(url.password(), StandardCharsets.UTF_8));
        }
        Env.override(Map.of("DATABASE_URL", jdbc,
                "DYNAMODB_ENDPOINT", ENGINE.endpoint().toString(),
                "PREVIEWS_TABLE", ENGINE.tables().tableName("PreviewsTable"),
                "CONFIGS_TABLE", ENGINE.tables().tableName("ConfigsTable")));
    }

    @AfterAll
    static void clear() {
        Env.clearOverrides();
    }

    static JsonNode answer(ToolFunction function, String eventFile) throws Exception {
        Path event = SamTemplate.locate().getParent().resolve("infra/events").resolve(eventFile);
        byte[] out = function.answer(new ByteArrayInputStream(Files.readAllBytes(event)), "req-1");
        return Json.parse(new String(out, StandardCharsets.UTF_8));
    }

    @Test
    void searchDatabaseSchemaAnswersTheSampleEvent() throws Exception {
        JsonNode out = answer(new SearchDatabaseSchemaFunction(), "search-database-schema.json");
        assertEquals("ok", out.path("status").asText(), out::toPrettyString);
        JsonNode orders = out.path("output").path("tables").path(0);
        assertEquals("orders", orders.path("name").asText());
        assertTrue(orders.path("references").toString().contains("(created_by) -> core.users(id)"));
    }

    @Test
    void previewTableConfigAnswersTheSampleEventAndStoresThePreview() throws Exception {
        JsonNode out = answer(new PreviewTableConfigFunction(), "preview-table-config.json");
        assertEquals("ok", out.path("status").asText(), out::toPrettyString);
        JsonNode preview = out.path("output");
        assertTrue(preview.path("valid").asBoolean(), preview::toPrettyString);
        assertTrue(preview.path("previewId").asText().startsWith("prv_"));
        assertFalse(preview.path("isUpdate").asBoolean());
        assertEquals(10, preview.path("rows").size());
        preview.path("rows").forEach(r -> assertTrue(r.path("created_at").asText().matches("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}")));
    }
}
