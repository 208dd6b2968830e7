package dev.tablewright.systemtest.conversations;

import dev.tablewright.fakes.configs.SampleConfigs;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.localstack.local.LocalDeployment;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.fakes.model.RecordedRequest;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A conversation of three turns over HTTP against the local stack, as a client using the AI SDK's
 * message-persistence form holds it: each request carries only the conversation id and the new message, and no
 * page context. The server keeps the history and the config being built: turn 1 creates a config and previews it,
 * turn 2 adds a filter without passing a config, its preview is accepted over HTTP, and turn 3's preview is an
 * update of the saved version 1.
 */
class ConversationTurnsTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    @AutoClose
    private static LocalDeployment stack;

    @BeforeAll
    static void start() throws Exception {
        stack = LocalDeployment.start(LocalDeployment.Settings.forTest(Map.of(), ModelScript.builder().build()));
    }

    /** What the model answers over the three turns: each test enqueues its own copy. */
    static ModelScript threeTurns() {
        return ModelScript.builder()
                // turn 1
                .turn(t -> t.toolCall("call_cols", "apply_column_change", SampleConfigs.STOCK_COLUMNS_CHANGE.formatted(System.nanoTime())))
                .turn(t -> t.toolCall("call_prev1", "preview_table_config", "{\"description\": \"Stock levels\"}"))
                .say("Here is a preview of stock levels.")
                // turn 2: no config argument: the conversation's draft is used
                .turn(t -> t.toolCall("call_filter", "apply_filter_change",
                        "{\"operation\": \"add\", \"filter\": {\"column\": \"quantity\", \"operator\": \"gt\", \"value\": 100}}"))
                .turn(t -> t.toolCall("call_prev2", "preview_table_config", "{\"description\": \"Only quantities above 100\"}"))
                .say("Filtered to quantities above 100.")
                // turn 3: after the accept, on the saved version
                .turn(t -> t.toolCall("call_sort", "apply_sort_change",
                        "{\"operation\": \"add\", \"sort\": [{\"column\": \"quantity\", \"direction\": \"desc\"}]}"))
                .turn(t -> t.toolCall("call_prev3", "preview_table_config", "{\"description\": \"Largest quantities first\"}"))
                .say("Sorted by quantity, largest first.")
                .build();
    }

    /** One streamed turn: its parts, in order. */
    static List<JsonNode> turn(String token, String conversation, String messageId, String text) throws Exception {
        return turn(stack.chatUrl(), token, conversation, messageId, text);
    }

    /** One streamed turn in the persistence form against the chat at {@code chatUrl}: its parts, in order. */
    static List<JsonNode> turn(String chatUrl, String token, String conversation, String messageId, String text) throws Exception {
        ObjectNode body = Json.object().put("id", conversation).put("trigger", "submit-message");
        ObjectNode message = body.putObject("message").put("id", messageId).put("role", "user");
        message.putArray("parts").addObject().put("type", "text").put("text", text);
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(chatUrl)).timeout(Duration.ofMinutes(2))
                .header("authorization", "Bearer " + token).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(body))).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        List<JsonNode> parts = dev.tablewright.fakes.stream.UiMessageStreamReader.parse(r.body()).parts();
        assertEquals("finish", parts.getLast().path("type").asText(), parts.toString());
        assertTrue(parts.stream().noneMatch(p -> p.path("type").asText().equals("error")), parts.toString());
        return parts;
    }

    static HttpResponse<String> api(String method, String path, String token, String body) throws Exception {
        return stack.call(method, path, token, body);
    }

    static JsonNode only(List<JsonNode> parts, String type) {
        List<JsonNode> found = parts.stream().filter(p -> p.path("type").asText().equals(type)).toList();
        assertEquals(1, found.size(), type + " in " + parts);
        return found.getFirst();
    }

    static List<String> columns(JsonNode config) {
        List<String> out = new ArrayList<>();
        config.path("data_source").path(0).path("select").path("columns").forEach(c -> out.add(c.path("name").asText()));
        return out;
    }

    @Test
    void threeTurnsSendingOnlyTheNewMessageBuildPreviewAndUpdateOneConfig() throws Exception {
        String token = stack.issuer().mint(DevIssuer.DEV_USER);
        String conversation = "conv-three-" + System.nanoTime();
        var model = stack.model().scriptedServer();
        int before = model.requests().size();
        model.enqueue(threeTurns());

        // turn 1: a new config, previewed
        List<JsonNode> first = turn(token, conversation, "u1", "Show stock levels with item and quantity");
        JsonNode start = only(first, "start");
        assertEquals(conversation, start.path("messageMetadata").path("conversationId").asText(), "useChat's message.metadata");
        JsonNode finish = only(first, "finish");
        assertTrue(finish.path("messageMetadata").path("usage").has("totalTokens"), finish.toString());
        JsonNode preview1 = only(first, "data-table-config-preview").path("data");
        assertFalse(preview1.path("isUpdate").asBoolean());
        assertEquals(List.of("item_id", "quantity"), columns(preview1.path("config")));

        // turn 2: a filter with no config argument; the preview holds the columns and the filter
        List<JsonNode> second = turn(token, conversation, "u2", "Only rows with quantity above 100");
        JsonNode filterCall = second.stream().filter(p -> p.path("type").asText().equals("tool-input-available")
                && p.path("toolName").asText().equals("apply_filter_change")).findFirst().orElseThrow();
        JsonNode filtered = second.stream().filter(p -> p.path("type").asText().equals("tool-output-available")
                && p.path("toolCallId").asText().equals(filterCall.path("toolCallId").asText())).findFirst().orElseThrow();
        assertTrue(filtered.path("output").path("valid").asBoolean(), filtered.toString());
        JsonNode preview2 = only(second, "data-table-config-preview").path("data");
        assertEquals(List.of("item_id", "quantity"), columns(preview2.path("config")));
        JsonNode filter = preview2.path("config").path("data_source").path(0).path("filters").path(0);
        assertEquals("quantity", filter.path("column").asText(), preview2.toString());
        assertEquals("gt", filter.path("operator").asText());

        // the model saw the stored history: turn 1's user message and the assistant's answer
        List<RecordedRequest> requests = model.requests().subList(before, model.requests().size());
        RecordedRequest turn2First = requests.get(3);
        String seen = Json.write(turn2First.messages());
        assertTrue(seen.contains("Show stock levels with item and quantity"), seen);
        assertTrue(seen.contains("Here is a preview of stock levels."), seen);
        assertTrue(seen.contains("Only rows with quantity above 100"), seen);

        // the preview is accepted over HTTP: version 1 of a new config
        HttpResponse<String> accepted = api("POST", "/previews/" + preview2.path("previewId").asText() + "/accept", token, "{}");
        assertEquals(201, accepted.statusCode(), accepted.body());
        JsonNode saved = Json.parse(accepted.body()).path("config");
        String configId = saved.path("configId").asText(saved.path("id").asText());

        // turn 3: a sort on the accepted config; its preview updates version 1
        List<JsonNode> third = turn(token, conversation, "u3", "Sort by quantity, largest first");
        JsonNode preview3 = only(third, "data-table-config-preview").path("data");
        assertTrue(preview3.path("isUpdate").asBoolean(), preview3.toString());
        assertEquals(configId, preview3.path("configId").asText());
        assertEquals(1, preview3.path("baseVersion").asLong());
        assertEquals("quantity", preview3.path("config").path("data_source").path(0).path("filters").path(0).path("column").asText(),
                "the accepted filter is still there");
        assertEquals("desc", preview3.path("config").path("data_source").path(0).path("sort").path(0).path("direction").asText());

        // a reload shows what was streamed: every message, with the ids the stream gave them
        HttpResponse<String> reloaded = api("GET", "/conversations/" + conversation, token, null);
        assertEquals(200, reloaded.statusCode(), reloaded.body());
        JsonNode stored = Json.parse(reloaded.body());
        List<String> ids = new ArrayList<>();
        stored.path("messages").forEach(m -> ids.add(m.path("id").asText()));
        assertEquals(List.of("u1", start.path("messageId").asText(), "u2", only(second, "start").path("messageId").asText(),
                "u3", only(third, "start").path("messageId").asText()), ids);
        JsonNode assistant1 = stored.path("messages").get(1);
        assertEquals("Here is a preview of stock levels.", lastText(assistant1), assistant1.toString());
        JsonNode previewPart = find(assistant1, "data-table-config-preview");
        assertEquals(preview1, previewPart.path("data"), "the preview as streamed");
        JsonNode columnsTool = find(assistant1, "tool-apply_column_change");
        assertEquals("output-available", columnsTool.path("state").asText());
        assertEquals("Show stock levels with item and quantity", stored.path("title").asText());
        assertEquals("pending_preview", stored.path("workingDraft").path("source").asText(), "turn 3 previewed an update");
        assertEquals(configId, stored.path("workingDraft").path("configId").asText());
        assertEquals("desc", stored.path("workingConfig").path("data_source").path(0).path("sort").path(0).path("direction").asText());

        // it is listed, and nobody else sees it
        HttpResponse<String> list = api("GET", "/conversations", token, null);
        assertTrue(list.body().contains(conversation), list.body());
        String intruder = stack.issuer().mint("intruder");
        assertFalse(api("GET", "/conversations", intruder, null).body().contains(conversation));
        assertEquals(404, api("GET", "/conversations/" + conversation, intruder, null).statusCode());
    }

    @Test
    void theTerminalClientHoldsTheSameConversation() throws Exception {
        String token = stack.issuer().mint(DevIssuer.DEV_USER);
        String conversation = "conv-terminal-" + System.nanoTime();
        stack.model().scriptedServer().enqueue(threeTurns());
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        // the user leaves the first preview for later, accepts the second, leaves the third
        java.io.BufferedReader typed = new java.io.BufferedReader(new java.io.StringReader("l\na\nl\n"));
        var chat = new dev.tablewright.localstack.chat.TerminalChat(new dev.tablewright.localstack.chat.TerminalChat.Options(
                stack.url(), stack.chatUrl(), token, "tables", null, conversation),
                dev.tablewright.localstack.chat.Terminal.streams(typed, new PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8)));
        chat.say("Show stock levels with item and quantity");
        chat.say("Only rows with quantity above 100");
        chat.say("Sort by quantity, largest first");
        String out = printed.toString(java.nio.charset.StandardCharsets.UTF_8);

        assertFalse(out.contains("  ! "), out);
        assertTrue(out.contains("Filtered to quantities above 100."), out);
        java.util.regex.Matcher accepted = java.util.regex.Pattern.compile("accepted: config (\\S+) is now at version 1").matcher(out);
        assertTrue(accepted.find(), out);
        assertTrue(out.contains("[update of " + accepted.group(1) + "]"), "the third preview updates the accepted config:\n" + out);
        assertTrue(out.contains("Sorted by quantity, largest first."), out);

        JsonNode stored = Json.parse(api("GET", "/conversations/" + conversation, token, null).body());
        assertEquals(6, stored.path("messages").size(), stored.toString());
        assertEquals(accepted.group(1), stored.path("workingDraft").path("configId").asText());
    }

    @Test
    void aPreviewUnderANameAnotherSavedConfigHoldsIsRefusedAtPreviewTime() throws Exception {
        String token = stack.issuer().mint(DevIssuer.DEV_USER);
        String name = "Taken " + System.nanoTime();
        HttpResponse<String> saved = api("POST", "/configs", token, """
                {"config": {"name": "%s", "data_source": [{"schema": "inventory", "source": "stock_levels",
                  "select": {"columns": [{"name": "item_id"}]}}], "visual_settings": {"columns": {"item_id": {"type": "number"}}}}}"""
                .formatted(name));
        assertEquals(201, saved.statusCode(), saved.body());
        stack.model().scriptedServer().enqueue(ModelScript.builder()
                .turn(t -> t.toolCall("call_cols", "apply_column_change", SampleConfigs.STOCK_COLUMNS_CHANGE.replace("\"Stock %d\"", Json.write(name))))
                .turn(t -> t.toolCall("call_prev", "preview_table_config", "{\"description\": \"Stock levels\"}"))
                .say("That name is taken.")
                .build());
        List<JsonNode> parts = turn(token, "conv-taken-" + System.nanoTime(), "u1", "Stock levels please");
        JsonNode previewed = parts.stream().filter(p -> p.path("type").asText().equals("tool-output-available")
                && p.path("toolCallId").asText().equals("call_prev")).findFirst().orElseThrow();
        assertFalse(previewed.path("output").path("valid").asBoolean(true), previewed.toString());
        assertEquals("name", previewed.path("output").path("errors").path(0).path("field").asText(), previewed.toString());
        assertTrue(parts.stream().noneMatch(p -> p.path("type").asText().equals("data-table-config-preview")), "no preview card");
    }

    static JsonNode find(JsonNode message, String type) {
        return dev.tablewright.fakes.conversations.SampleMessages.part(message, type);
    }

    static String lastText(JsonNode message) {
        String text = null;
        for (JsonNode p : message.path("parts")) {
            if (p.path("type").asText().equals("text")) {
                text = p.path("text").asText();
            }
        }
        return text;
    }
}
