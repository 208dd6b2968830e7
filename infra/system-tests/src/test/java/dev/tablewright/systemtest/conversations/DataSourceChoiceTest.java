package dev.tablewright.systemtest.conversations;

import dev.tablewright.systemtest.database.TwoDataSources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.localstack.local.LocalDeployment;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two data sources, production and staging, where only staging has {@code sales.returns}: once the user picks
 * staging for the conversation, the operation tools ground names against staging too, so a staging-only table the
 * schema search showed is accepted (it used to be "does not exist", checked against the first data source).
 */
class DataSourceChoiceTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    @AutoClose
    private static LocalDeployment stack;

    @BeforeAll
    static void start() throws Exception {
        stack = LocalDeployment.start(LocalDeployment.Settings.forTest(Map.of("DATA_SOURCES", TwoDataSources.dataSourcesJson()),
                ModelScript.builder().build()));
    }

    static List<JsonNode> chat(String token, ObjectNode body) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(stack.chatUrl())).timeout(Duration.ofMinutes(2))
                .header("authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.ofString(Json.write(body))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        List<JsonNode> parts = dev.tablewright.fakes.stream.UiMessageStreamReader.parse(r.body()).parts();
        return parts;
    }

    static HttpResponse<String> api(String method, String path, String token, String body) throws Exception {
        return stack.call(method, path, token, body);
    }

    @Test
    void afterTheUserPicksStagingAnOperationToolAcceptsAStagingOnlyTable() throws Exception {
        stack.model().scriptedServer().enqueue(ModelScript.builder()
                .turn(t -> t.toolCall("call_search", "search_database_schema", "{\"query\": \"returns\"}"))
                .turn(t -> t.toolCall("call_cols", "apply_column_change", """
                        {"config": {"name": "Returns %d", "data_source": [{"schema": "sales", "source": "returns",
                          "select": {"columns": []}}], "visual_settings": {"columns": {}}},
                         "operation": "add", "columns": [{"name": "amount", "pg_type": "numeric"}]}""".formatted(System.nanoTime())))
                .say("Added the amount of each return.")
                .build());
        String token = stack.issuer().mint(DevIssuer.DEV_USER);
        String conversation = "conv-sources-" + System.nanoTime();
        ObjectNode first = Json.object().put("id", conversation).put("trigger", "submit-message");
        ObjectNode message = first.putObject("message").put("id", "u1").put("role", "user");
        message.putArray("parts").addObject().put("type", "text").put("text", "Show the returns with their amount");

        // the search asks which database: the user picks staging
        List<JsonNode> asked = chat(token, first);
        JsonNode request = asked.stream().filter(p -> p.path("type").asText().equals("data-user-input-request"))
                .findFirst().orElseThrow(() -> new AssertionError(asked.toString())).path("data");
        HttpResponse<String> submitted = api("POST", "/conversations/" + conversation + "/input-requests/"
                + request.path("toolCallId").asText() + "/response", token, "{\"values\": {\"database\": \"staging\"}}");
        assertEquals(200, submitted.statusCode(), submitted.body());

        // the client resumes with the assistant message as stored (the paused call), as the persistence form does
        JsonNode stored = Json.parse(api("GET", "/conversations/" + conversation, token, null).body());
        ObjectNode resume = Json.object().put("id", conversation).put("trigger", "submit-message");
        resume.set("message", stored.path("messages").get(stored.path("messages").size() - 1));
        List<JsonNode> resumed = chat(token, resume);

        JsonNode search = output(resumed, "call_search");
        assertEquals("staging", search.path("database").asText(), search.toString());
        assertTrue(search.toString().contains("returns"), "the schema search shows staging's table: " + search);
        JsonNode columns = output(resumed, "call_cols");
        assertTrue(columns.path("valid").asBoolean(), "grounded against staging, where sales.returns exists: " + columns);
        assertEquals("amount", columns.path("config").path("data_source").path(0).path("select").path("columns").path(0).path("name").asText());
    }

    static JsonNode output(List<JsonNode> parts, String toolCallId) {
        return parts.stream().filter(p -> p.path("type").asText().equals("tool-output-available")
                        && p.path("toolCallId").asText().equals(toolCallId)).findFirst()
                .orElseThrow(() -> new AssertionError("no output for " + toolCallId + " in " + parts)).path("output");
    }
}
