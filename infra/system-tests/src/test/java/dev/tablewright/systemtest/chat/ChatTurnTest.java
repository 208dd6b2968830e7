package dev.tablewright.systemtest.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.fakes.model.RecordedRequest;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.Tool;
import dev.tablewright.tools.ApplyColumnChangeTool;
import dev.tablewright.tools.ApplyFilterChangeTool;
import dev.tablewright.tools.ApplyJoinChangeTool;
import dev.tablewright.tools.ApplySortChangeTool;
import dev.tablewright.tools.DiscoverTableReferenceTool;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The chat turn against the scripted model through the real openai-java client: the tool loop, the repair bound,
 * client-side tools, editable fields, the tool catalogue, and what the model was sent.
 */
class ChatTurnTest {

    static final String CONFIG = """
            {"id":"cfg_inventory","name":"Inventory","version":1,
             "data_source":[{"schema":"inventory","source":"items",
               "select":{"columns":[{"name":"id"},{"name":"sku"},{"name":"name"},{"name":"quantity"},{"name":"warehouse_id"}]}}],
             "visual_settings":{"page_size":25,"columns":{
               "id":{"header":"ID","type":"number"},"sku":{"header":"SKU","type":"string"},"name":{"header":"Name","type":"string"},
               "quantity":{"header":"Qty","type":"number"},"warehouse_id":{"header":"Warehouse","type":"number"}}}}""";

    @AutoClose
    final ChatHarness chat = ChatHarness.overOperationTools();

    static List<Tool> operationTools() {
        return List.of(new ApplyColumnChangeTool(), new ApplyFilterChangeTool(), new ApplyJoinChangeTool(),
                new ApplySortChangeTool(), new DiscoverTableReferenceTool());
    }

    static String body(String userText) {
        return body(userText, List.of(), List.of());
    }

    /** A useChat body: earlier messages, then (when userText is not null) a new user message; tables context with CONFIG. */
    static String body(String userText, List<JsonNode> earlier, List<String> clientTools) {
        ObjectNode b = Json.object().put("id", "conv_1").put("trigger", "submit-message");
        ArrayNode messages = b.putArray("messages");
        earlier.forEach(messages::add);
        if (userText != null) {
            ObjectNode user = messages.addObject().put("id", "u_" + messages.size()).put("role", "user");
            user.putArray("parts").addObject().put("type", "text").put("text", userText);
        }
        ObjectNode context = b.putObject("context").put("page", "tables").put("configId", "cfg_inventory");
        context.set("config", parse(CONFIG));
        if (!clientTools.isEmpty()) {
            ArrayNode ct = b.putArray("clientTools");
            clientTools.forEach(ct::add);
        }
        return Json.write(b);
    }

    static JsonNode parse(String json) {
        try {
            return Json.parse(json);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static JsonNode toolMessage(RecordedRequest request, String toolCallId) {
        for (JsonNode m : request.messages()) {
            if ("tool".equals(m.path("role").asText()) && toolCallId.equals(m.path("tool_call_id").asText())) {
                return parse(RecordedRequest.contentText(m.get("content")));
            }
        }
        throw new AssertionError("no tool message for " + toolCallId + " in " + request.messages());
    }

    // ---- what the model is sent ----

    @Test
    void theModelIsSentTheAssembledSystemPromptAndOnlyTheCoreToolsUntilTheCatalogueFindsMore() throws Exception {
        chat.model.enqueue(ModelScript.builder()
                .turn(t -> t.toolCall("call_s", "search_tools", "{\"query\":\"join another table\"}"))
                .say("I can join it now.")
                .build());
        ChatHarness.Turn turn = chat.send(body("join the warehouses table"));

        RecordedRequest first = chat.model.requests().get(0);
        String system = first.systemPrompt();
        assertTrue(system.contains("You are the assistant of a table builder"), system);
        assertTrue(system.contains("columns first, then joins, then filters"), system);
        assertTrue(system.contains("Only ever preview a config that came from an operation tool or from get_table_config"), system);
        assertTrue(system.contains("ask them to accept or reject"), system);
        assertTrue(system.contains("Base table: inventory.items"), system);
        assertTrue(system.contains("Columns (5): id (number), sku (string), name (string), quantity (number), warehouse_id (number)"), system);
        assertTrue(system.contains("- page_size: 25 [number, whole number between 1 and 500]"), system);
        assertTrue(system.contains("- name: \"Inventory\""), system);
        List<String> firstTools = first.toolNames();
        assertTrue(firstTools.containsAll(List.of("apply_column_change", "apply_filter_change", "discover_table_reference",
                "search_tools", "update_editable_status")), firstTools.toString());
        assertFalse(firstTools.contains("apply_join_change"), "a discoverable tool is not sent up front: " + firstTools);
        JsonNode columnTool = tool(first, "apply_column_change");
        assertFalse(columnTool.path("parameters").path("required").toString().contains("\"config\""),
                "config is optional for the model: the working config is filled in");

        JsonNode found = toolMessage(chat.model.requests().get(1), "call_s");
        assertEquals("apply_join_change", found.path("tools").get(0).path("name").asText(), found.toString());
        assertTrue(chat.model.requests().get(1).toolNames().contains("apply_join_change"),
                "the catalogue's find is callable in the next step");
        assertEquals("I can join it now.", turn.text());
        assertEquals(List.of("start", "start-step", "tool-input-start", "tool-input-delta", "tool-input-available",
                "tool-output-available", "finish-step", "start-step", "text-start", "text-delta", "text-end",
                "finish-step", "finish"), turn.types());
        assertTrue(turn.stream().done());
    }

    static JsonNode tool(RecordedRequest request, String name) {
        for (JsonNode t : request.tools()) {
            if (name.equals(t.path("function").path("name").asText())) {
                return t.path("function");
            }
        }
        throw new AssertionError("no tool " + name);
    }

    // ---- the repair loop ----

    @Test
    void anInvalidOperationGoesBackWithItsErrorsAndTheRepairedOneIsApplied() throws Exception {
        chat.model.enqueue(ModelScript.builder()
                .turn(t -> t.toolCall("call_1", "apply_filter_change",
                        "{\"operation\":\"add\",\"filter\":{\"column\":\"quantity\",", "\"operator\":\"contains\",\"value\":\"5\"}}"))
                .turn(t -> t.toolCall("call_2", "apply_filter_change",
                        "{\"operation\":\"add\",\"filter\":{\"column\":\"quantity\",\"operator\":\"gt\",\"value\":5}}"))
                .say("Added a filter: quantity above 5.")
                .build());
        ChatHarness.Turn turn = chat.send(body("only items with more than 5 in stock"));

        JsonNode firstResult = toolMessage(chat.model.requests().get(1), "call_1");
        assertFalse(firstResult.path("valid").asBoolean(true), firstResult.toString());
        assertTrue(firstResult.path("errors").toString().contains("contains"), firstResult.toString());
        JsonNode repaired = toolMessage(chat.model.requests().get(2), "call_2");
        assertTrue(repaired.path("valid").asBoolean(), repaired.toString());
        assertTrue(repaired.path("config").asText().startsWith("(omitted: this is now the working config"),
                "the model does not read the whole config again: " + repaired);
        JsonNode shown = turn.stream().ofType("tool-output-available").get(1).path("output");
        assertEquals("quantity", shown.path("config").path("data_source").get(0).path("filters").get(0).path("column").asText(),
                "the working config was filled in for the tool, and the client gets the whole result");
        assertTrue(chat.model.requests().get(2).systemPrompt().contains("Filters: quantity gt 5"),
                "the next step's prompt summarises the new working config");
        assertEquals(2, turn.stream().ofType("tool-output-available").size());
        assertTrue(turn.stream().ofType("data-validation-errors").isEmpty(), "within the bound: no error card");
        assertEquals("Added a filter: quantity above 5.", turn.text());
        assertEquals("stop", turn.first("finish").path("finishReason").asText());
    }

    @Test
    void pastTheRepairBoundTheTurnExplainsTheErrorsAndStopsAskingTheModel() throws Exception {
        String invalid = "{\"operation\":\"add\",\"filter\":{\"column\":\"quantity\",\"operator\":\"contains\",\"value\":\"5\"}}";
        chat.model.enqueue(ModelScript.builder()
                .turn(t -> t.toolCall("call_1", "apply_filter_change", invalid))
                .turn(t -> t.toolCall("call_2", "apply_filter_change", invalid))
                .turn(t -> t.toolCall("call_3", "apply_filter_change", invalid))
                .say("never sent")
                .build());
        ChatHarness.Turn turn = chat.send(body("filter quantity containing 5"));

        assertEquals(3, chat.model.requests().size(), "1 attempt + 2 repairs, then no further model call");
        JsonNode card = turn.first("data-validation-errors");
        assertEquals("call_3", card.path("data").path("toolCallId").asText());
        assertTrue(card.path("data").path("errors").get(0).path("field").asText().contains("operator"), card.toString());
        assertTrue(turn.text().startsWith("I could not make this change valid after 3 attempts."), turn.text());
        assertTrue(turn.text().contains("contains"), turn.text());
        assertEquals("finish", turn.types().get(turn.types().size() - 1));
        assertTrue(turn.stream().done());
    }

    // ---- client-side tools ----

    @Test
    void aClientToolEndsTheStreamAtItsInputAndTheNextRequestCarriesItsOutput() throws Exception {
        chat.model.enqueue(ModelScript.builder()
                .turn(t -> t.text("Let me look at your selection.").toolCall("call_c", "get_selection", "{\"scope\":\"rows\"}"))
                .say("You selected 3 rows.")
                .build());
        ChatHarness.Turn first = chat.send(body("what did I select?", List.of(), List.of("get_selection")));
        assertEquals(List.of("start", "start-step", "text-start", "text-delta", "text-end", "tool-input-start",
                "tool-input-delta", "tool-input-available", "finish-step", "finish"), first.types());
        assertEquals("tool-calls", first.first("finish").path("finishReason").asText());
        assertEquals(1, chat.model.requests().size(), "the server does not run a client tool");
        assertTrue(chat.model.requests().get(0).toolNames().contains("get_selection"));

        // what useChat sends after addToolResult: the assistant message with the tool part now output-available
        String messageId = first.first("start").path("messageId").asText();
        JsonNode user = parse("{\"id\":\"u_0\",\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"text\":\"what did I select?\"}]}");
        JsonNode assistant = parse("""
                {"id":"%s","role":"assistant","parts":[{"type":"step-start"},
                  {"type":"text","text":"Let me look at your selection.","state":"done"},
                  {"type":"tool-get_selection","toolCallId":"call_c","state":"output-available","input":{"scope":"rows"},"output":{"rows":3}}]}"""
                .formatted(messageId));
        ChatHarness.Turn second = chat.send(body(null, List.of(user, assistant), List.of("get_selection")));
        assertEquals(messageId, second.first("start").path("messageId").asText(), "the same assistant message continues");
        assertEquals(3, toolMessage(chat.model.requests().get(1), "call_c").path("rows").asInt());
        assertEquals("You selected 3 rows.", second.text());
    }

    // ---- editable fields ----

    @Test
    void anEditableFieldUpdateIsValidatedAndARejectedValueGoesBackToTheModel() throws Exception {
        chat.model.enqueue(ModelScript.builder()
                .turn(t -> t.toolCall("call_1", "update_editable_status", "{\"fieldName\":\"page_size\",\"value\":\"1000\"}"))
                .turn(t -> t.toolCall("call_2", "update_editable_status", "{\"fieldName\":\"page_size\",\"value\":\"500\"}"))
                .say("Page size is now 500, the most allowed.")
                .build());
        ChatHarness.Turn turn = chat.send(body("show 1000 rows per page"));

        JsonNode rejected = toolMessage(chat.model.requests().get(1), "call_1");
        assertFalse(rejected.path("success").asBoolean(true));
        assertEquals("Field 'page_size' must be between 1 and 500", rejected.path("error").asText());
        assertEquals("25", rejected.path("previousValue").asText());
        assertEquals("25", rejected.path("newValue").asText());
        JsonNode accepted = toolMessage(chat.model.requests().get(2), "call_2");
        assertTrue(accepted.path("success").asBoolean());
        assertEquals("500", accepted.path("newValue").asText());
        assertTrue(chat.model.requests().get(2).systemPrompt().contains("- page_size: 500 ["),
                "the next step's prompt renders the new value");
        List<JsonNode> updates = turn.stream().ofType("data-editable-field-update");
        assertEquals(1, updates.size(), "only the accepted change reaches the page");
        assertEquals("500", updates.get(0).path("data").path("newValue").asText());
    }

    // ---- bounds ----

    @Test
    void toolCallsBeyondThePerStepLimitAreAnsweredWithAnErrorTheModelSees() throws Exception {
        chat.limits = chat.limits.withMaxToolCallsPerStep(1);
        chat.model.enqueue(ModelScript.builder()
                .turn(t -> t.toolCall("call_1", "discover_table_reference", "{}")
                        .toolCallStart(1, "call_2", "discover_table_reference").toolArguments(1, "{}"))
                .say("done")
                .build());
        ChatHarness.Turn turn = chat.send(body("types?"));
        assertEquals("too_many_calls", toolMessage(chat.model.requests().get(1), "call_2").path("error").path("code").asText());
        assertEquals(1, turn.stream().ofType("tool-output-error").size());
    }

    @Test
    void theTurnStopsAtItsStepLimitWithAFinishTheClientUnderstands() throws Exception {
        chat.limits = chat.limits.withMaxSteps(2);
        chat.model.enqueue(ModelScript.builder()
                .turn(t -> t.toolCall("call_1", "search_tools", "{\"query\":\"sort\"}"))
                .turn(t -> t.toolCall("call_2", "search_tools", "{\"query\":\"join\"}"))
                .say("never sent")
                .build());
        ChatHarness.Turn turn = chat.send(body("loop"));
        assertEquals(2, chat.model.requests().size());
        assertTrue(turn.text().contains("limit of 2 steps"), turn.text());
        assertEquals("other", turn.first("finish").path("finishReason").asText());
        assertTrue(turn.stream().done());
    }

    // ---- bad requests ----

    @Test
    void aMalformedBodyIsA400NamingTheFieldAndTheModelIsNeverCalled() throws Exception {
        ChatHarness.Turn turn = chat.send("{\"messages\":[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"text\":42}]}]}");
        assertEquals(400, turn.response().statusCode());
        JsonNode error = Json.parse(turn.response().body()).path("error");
        // the API's error shape (docs/errors.md): every bad field in "fields", as every other function answers
        assertEquals("invalid_request", error.path("code").asText(), error.toString());
        assertEquals("messages[0].parts[0].text", error.path("fields").path(0).path("field").asText(), error.toString());
        assertTrue(error.path("field").isMissingNode(), "no chat-only \"field\": " + error);
        assertNotNull(error.path("message").asText(null));
        assertTrue(chat.model.requests().isEmpty());
        assertEquals(Map.of("content-type", "application/json"), turn.response().headers());
    }

    static Duration seconds(long s) {
        return Duration.ofSeconds(s);
    }
}
