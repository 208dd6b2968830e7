package dev.tablewright.localstack.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.fakes.stream.UiMessageStreamReader;
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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A whole session over HTTP against the local stack, with the bundled example conversation on the scripted model
 * and two data sources (so the database tools ask which one): a chat turn pauses for input, the answer is
 * submitted through the user-input route, the turn resumes and ends in a table-config preview, the preview is
 * accepted through the config-store route, and the saved config is there.
 */
class LocalDeploymentSessionTest {

    @AutoClose
    private static LocalDeployment stack;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeAll
    static void start() throws Exception {
        String url;
        try (LocalDatabase database = LocalDatabase.resolve(System.getenv("DATABASE_URL"))) {
            url = database.url().jdbcUrl();
        }
        String sources = Json.write(Json.object()
                .set("production", Json.object().put("url", url))).replace("}}", "},\"staging\":{\"url\":" + Json.write(Json.MAPPER.valueToTree(url)) + "}}");
        stack = LocalDeployment.start(LocalDeployment.Settings.forTest(Map.of("DATA_SOURCES", sources), LocalModel.exampleConversation()));
    }

    /** What a useChat client keeps of one streamed response: the parts, in order. */
    private static List<JsonNode> chat(String token, ObjectNode body) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(stack.chatUrl())).timeout(Duration.ofMinutes(2))
                .header("authorization", "Bearer " + token).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(body))).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        assertEquals("v1", r.headers().firstValue("x-vercel-ai-ui-message-stream").orElse(null));
        UiMessageStreamReader.Parsed stream = UiMessageStreamReader.parse(r.body());
        assertTrue(stream.done(), r.body());
        return stream.parts();
    }

    private static List<JsonNode> ofType(List<JsonNode> parts, String type) {
        return parts.stream().filter(p -> p.path("type").asText().equals(type)).toList();
    }

    @Test
    void aTurnPausesForInputResumesAfterTheAnswerAndItsPreviewIsAccepted() throws Exception {
        String token = stack.issuer().mint(DevIssuer.DEV_USER);
        String conversation = "conv-session-" + System.nanoTime();
        ObjectNode body = Json.object().put("id", conversation).put("trigger", "submit-message");
        ArrayNode messages = body.putArray("messages");
        ObjectNode user = messages.addObject().put("id", "m1").put("role", "user");
        user.putArray("parts").addObject().put("type", "text").put("text", "Show stock levels with their warehouse name");
        body.putObject("context").put("page", "tables");

        // 1. The schema search needs to know which database: the turn asks and stops.
        List<JsonNode> first = chat(token, body);
        List<JsonNode> asks = ofType(first, "data-user-input-request");
        assertEquals(1, asks.size(), first.toString());
        JsonNode ask = asks.getFirst().path("data");
        assertEquals("search_database_schema", ask.path("toolName").asText());
        assertEquals("database", ask.path("fields").path(0).path("name").asText());
        assertTrue(ofType(first, "data-table-config-preview").isEmpty());
        assertEquals("finish", first.getLast().path("type").asText());

        // 2. The answer goes to the user-input route (a value not among the options is refused first).
        String response = "/conversations/" + conversation + "/input-requests/" + ask.path("toolCallId").asText() + "/response";
        assertEquals(400, stack.call("POST", response, token, "{\"values\": {\"database\": \"nowhere\"}}").statusCode());
        HttpResponse<String> submitted = stack.call("POST", response, token, "{\"values\": {\"database\": \"staging\"}}");
        assertEquals(200, submitted.statusCode(), submitted.body());

        // 3. The client sends the conversation again with the paused call, as useChat does: the turn resumes it.
        ObjectNode assistant = messages.addObject().put("id", "m2").put("role", "assistant");
        ArrayNode parts = assistant.putArray("parts");
        parts.addObject().put("type", "step-start");
        for (JsonNode p : ofType(first, "tool-input-available")) {
            ObjectNode call = parts.addObject().put("type", "tool-" + p.path("toolName").asText())
                    .put("toolCallId", p.path("toolCallId").asText()).put("state", "input-available");
            call.set("input", p.path("input"));
        }
        List<JsonNode> resumed = chat(token, body);
        assertTrue(ofType(resumed, "data-user-input-request").isEmpty(), "the saved answer is not asked for again: " + resumed);
        List<JsonNode> previews = ofType(resumed, "data-table-config-preview");
        assertEquals(1, previews.size(), resumed.toString());
        JsonNode preview = previews.getFirst().path("data");
        assertEquals("staging", preview.path("database").asText());
        assertFalse(preview.path("rows").isEmpty(), preview.toString());
        assertTrue(preview.path("sql").asText().contains("JOIN"), preview.toString());
        assertEquals("finish", resumed.getLast().path("type").asText());

        // 4. Accepting the preview saves the config as version 1.
        HttpResponse<String> accepted = stack.call("POST", "/previews/" + preview.path("previewId").asText() + "/accept", token, "{}");
        assertEquals(2, accepted.statusCode() / 100, accepted.body());
        String configId = Json.parse(accepted.body()).path("config").path("configId").asText();
        HttpResponse<String> saved = stack.call("GET", "/configs/" + configId, token, "");
        assertEquals(200, saved.statusCode(), saved.body());
        assertTrue(saved.body().contains("warehouses"), saved.body());

        // 5. Accepted once only; and another user cannot accept or see it.
        assertEquals(4, stack.call("POST", "/previews/" + preview.path("previewId").asText() + "/accept", token, "{}").statusCode() / 100);
        String intruder = stack.issuer().mint("intruder");
        assertEquals(404, stack.call("GET", "/configs/" + configId, intruder, "").statusCode());
        assertEquals(404, stack.call("POST", "/previews/" + preview.path("previewId").asText() + "/reject", intruder, "{}").statusCode());
    }
}
