package dev.tablewright.functions.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;
import dev.tablewright.lambda.ToolFunction;
import dev.tablewright.logging.StructuredLog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The six handlers as Lambda calls them (bytes in, bytes out), on hostile input: always an answer, never a trace. */
class OperationFunctionsTest {

    static final String CONFIG = """
            {"id": "cfg_1", "name": "Orders", "data_source": [{"schema": "sales", "source": "orders",
              "select": {"columns": [{"name": "id"}, {"name": "status"}]}}],
             "visual_settings": {"columns": {"id": {"type": "number"}, "status": {"type": "string"}}}}""";

    @BeforeAll
    static void quietLogs() {
        StructuredLog.redirect(new PrintStream(OutputStream.nullOutputStream()));
    }

    @AfterAll
    static void restoreLogs() {
        StructuredLog.redirect(System.out);
    }

    static List<ToolFunction> all() {
        return List.of(new ApplyColumnChangeFunction(), new ApplyFilterChangeFunction(), new ApplyJoinChangeFunction(),
                new ApplySortChangeFunction(), new ValidateTableConfigFunction(), new DiscoverTableReferenceFunction());
    }

    static JsonNode call(ToolFunction function, byte[] body) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        function.handleRequest(new ByteArrayInputStream(body), out, null);
        String text = out.toString(StandardCharsets.UTF_8);
        assertFalse(text.contains("\tat ") || text.contains("Exception") || text.contains("dev.tablewright."),
                function.definition().name() + " leaked internals: " + text.substring(0, Math.min(300, text.length())));
        return Json.parse(text);
    }

    static JsonNode call(ToolFunction function, String body) throws Exception {
        return call(function, body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void eachHandlerRunsItsOwnTool() {
        List<String> names = all().stream().map(f -> f.definition().name()).toList();
        assertEquals(List.of("apply_column_change", "apply_filter_change", "apply_join_change", "apply_sort_change",
                "validate_table_config", "discover_table_reference"), names);
    }

    @Test
    void hostileInputAlwaysGetsAnAnswerInTheEnvelope() throws Exception {
        List<String> bodies = List.of("", "{", "[]", "\"config\"", "{\"config\": 42}", "{\"config\": \"{oops\"}",
                "{\"operation\": \"explode\", \"config\": " + CONFIG + "}",
                "{\"tool\": \"not_this_tool\", \"arguments\": {}}",
                "{\"operation\": \"add\", \"config\": " + CONFIG + ", \"columns\": [{\"name\": 7}], \"filter\": [], \"join\": \"x\", \"sort\": {}}");
        for (ToolFunction function : all()) {
            for (String body : bodies) {
                JsonNode answer = call(function, body);
                String status = answer.path("status").asText();
                assertTrue(status.equals("error") || (status.equals("ok") && answer.path("output").isObject()),
                        function.definition().name() + " on " + body + ": " + answer);
                if (status.equals("ok") && answer.at("/output/valid").isBoolean()) {
                    // a config tool that could not apply the call says why, field by field
                    assertTrue(answer.at("/output/valid").asBoolean() || answer.at("/output/errors").size() > 0, answer.toString());
                }
            }
        }
    }

    @Test
    void tenThousandColumnsAreRefusedWithAFieldLevelMessage() throws Exception {
        ObjectNode args = Json.object().put("operation", "add");
        args.set("config", Json.parse(CONFIG));
        ArrayNode columns = args.putArray("columns");
        for (int i = 0; i < 10_000; i++) {
            columns.addObject().put("name", "c" + i).put("pg_type", "text");
        }
        JsonNode answer = call(new ApplyColumnChangeFunction(), Json.MAPPER.writeValueAsBytes(args));
        assertEquals("ok", answer.path("status").asText(), answer.toString());
        assertFalse(answer.at("/output/valid").asBoolean());
        assertTrue(answer.at("/output/errors/0/field").asText().startsWith("columns"), answer.at("/output/errors").toString());
    }

    @Test
    void aLongOrNonIdentifierNameIsAFieldError() throws Exception {
        for (String name : List.of("x".repeat(64), "name; DROP TABLE orders", "\"quoted\"")) {
            ObjectNode args = Json.object().put("operation", "add");
            args.set("config", Json.parse(CONFIG));
            args.putArray("columns").addObject().put("name", name).put("pg_type", "text");
            JsonNode answer = call(new ApplyColumnChangeFunction(), Json.MAPPER.writeValueAsBytes(args));
            assertFalse(answer.at("/output/valid").asBoolean(true), name + " → " + answer);
            assertTrue(answer.at("/output/errors").size() > 0, answer.toString());
        }
    }

    @Test
    void configAsJsonTextThroughTheRealHandler() throws Exception {
        ObjectNode args = Json.object().put("operation", "add").put("config", CONFIG);
        args.putObject("filter").put("column", "created_at").put("operator", "gte").put("value", "2024-01-01")
                .put("pg_type", "timestamp with time zone");
        ObjectNode envelope = Json.object().put("tool", "apply_filter_change").put("conversationId", "c_1");
        envelope.set("arguments", args);
        JsonNode answer = call(new ApplyFilterChangeFunction(), Json.MAPPER.writeValueAsBytes(envelope));
        assertTrue(answer.at("/output/valid").asBoolean(), answer.toString());
        assertTrue(answer.at("/output/config/visual_settings/columns/created_at/hidden").asBoolean(), answer.toString());
    }
}
