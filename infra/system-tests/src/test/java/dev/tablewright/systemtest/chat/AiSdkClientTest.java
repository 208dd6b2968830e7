package dev.tablewright.systemtest.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.tablewright.systemtest.chat.ChatTurnTest.body;
import static dev.tablewright.systemtest.chat.ChatTurnTest.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Our streams, read by the AI SDK's own code (the {@code ai} npm package), as a useChat client reads them. */
class AiSdkClientTest {

    @AutoClose
    final ChatHarness chat = ChatHarness.overOperationTools();

    static List<JsonNode> parts(JsonNode message, String type) {
        List<JsonNode> out = new ArrayList<>();
        message.path("parts").forEach(p -> {
            if (type.equals(p.path("type").asText())) {
                out.add(p);
            }
        });
        return out;
    }

    @Test
    void aTurnWithTextToolCallsToolErrorsAndDataPartsIsReadIntoOneAssistantMessage() throws Exception {
        chat.model.enqueue(ModelScript.builder()
                .turn(t -> t.text("Let me add it.").toolCall("call_bad", "apply_column_change", "{\"operation\":"))
                .turn(t -> t.toolCall("call_1", "apply_column_change",
                        "{\"operation\":\"add\",", "\"columns\":[{\"name\":\"created_at\",\"pg_type\":\"timestamp with time zone\"}]}"))
                .turn(t -> t.toolCall("call_2", "update_editable_status", "{\"fieldName\":\"name\",\"value\":\"Stock\"}"))
                .say("Added created_at and renamed the table.")
                .build());
        ChatHarness.Turn turn = chat.send(body("add created_at and call it Stock"));
        JsonNode read = AiSdkClient.read(turn.response().body(), null);
        JsonNode message = read.path("message");

        assertEquals(turn.first("start").path("messageId").asText(), message.path("id").asText());
        assertEquals("assistant", message.path("role").asText());
        assertEquals(4, parts(message, "step-start").size());
        JsonNode bad = parts(message, "tool-apply_column_change").get(0);
        assertEquals("output-error", bad.path("state").asText(), bad.toString());
        JsonNode added = parts(message, "tool-apply_column_change").get(1);
        assertEquals("output-available", added.path("state").asText());
        assertTrue(added.path("output").path("valid").asBoolean(), added.toString());
        assertEquals("created_at", added.path("input").path("columns").get(0).path("name").asText());
        assertEquals("Stock", parts(message, "data-editable-field-update").get(0).path("data").path("newValue").asText());
        List<JsonNode> texts = parts(message, "text");
        assertEquals("Let me add it.", texts.get(0).path("text").asText());
        assertEquals("Added created_at and renamed the table.", texts.get(texts.size() - 1).path("text").asText());
        assertEquals(0, read.path("errors").size());
    }

    @Test
    void aClientToolRoundTripUsesTheMessageTheSdkBuiltAndContinuesIt() throws Exception {
        chat.model.enqueue(ModelScript.builder()
                .turn(t -> t.toolCall("call_c", "get_selection", "{\"scope\":\"rows\"}"))
                .say("You selected 3 rows.")
                .build());
        ChatHarness.Turn first = chat.send(body("what did I select?", List.of(), List.of("get_selection")));
        JsonNode assistant = AiSdkClient.read(first.response().body(), null).path("message");
        ObjectNode tool = (ObjectNode) parts(assistant, "tool-get_selection").get(0);
        assertEquals("input-available", tool.path("state").asText(), "waiting for the browser to run it");

        // what addToolResult does to the part, before sendAutomaticallyWhen resends the conversation
        tool.put("state", "output-available");
        tool.set("output", parse("{\"rows\":3}"));
        JsonNode user = parse("{\"id\":\"u_0\",\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"text\":\"what did I select?\"}]}");
        ChatHarness.Turn second = chat.send(body(null, List.of(user, assistant), List.of("get_selection")));
        JsonNode continued = AiSdkClient.read(second.response().body(), assistant).path("message");

        assertEquals(assistant.path("id").asText(), continued.path("id").asText(), "one assistant message across both requests");
        assertEquals("output-available", parts(continued, "tool-get_selection").get(0).path("state").asText());
        List<JsonNode> texts = parts(continued, "text");
        assertEquals("You selected 3 rows.", texts.get(texts.size() - 1).path("text").asText());
    }

    @Test
    void anErrorMidStreamReachesTheClientAsItsErrorAndTheMessageKeepsWhatCame() throws Exception {
        chat.model.enqueue(ModelScript.builder().turn(t -> t.text("Half an ").cut()).build());
        ChatHarness.Turn turn = chat.send(body("hello"));
        JsonNode read = AiSdkClient.read(turn.response().body(), null);
        assertEquals(Json.MAPPER.createArrayNode().add("The connection to the model was lost mid-answer."), read.path("errors"));
        assertEquals("Half an ", parts(read.path("message"), "text").get(0).path("text").asText());
    }
}
