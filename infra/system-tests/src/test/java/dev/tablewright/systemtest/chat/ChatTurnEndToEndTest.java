package dev.tablewright.systemtest.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.fakes.model.RecordedRequest;
import dev.tablewright.json.Json;
import dev.tablewright.tools.ApplyColumnChangeTool;
import dev.tablewright.tools.ApplyFilterChangeTool;
import dev.tablewright.tools.ApplyJoinChangeTool;
import dev.tablewright.tools.ApplySortChangeTool;
import dev.tablewright.tools.DiscoverTableReferenceTool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.tablewright.systemtest.chat.ChatTurnTest.parse;
import static dev.tablewright.systemtest.chat.ChatTurnTest.toolMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * "Add the warehouse name to this inventory table", end to end: the scripted model drives schema search, the join
 * change and the preview; the tools run for real (the sample database on PostgreSQL, pending previews on DynamoDB
 * Local); the stream ends in a {@code data-table-config-preview} part that the AI SDK's own reader accepts.
 */
class ChatTurnEndToEndTest {

    /** The builder page's state for inventory.stock_levels (TableBuilderState, as the page sends it). */
    static final String STATE = """
            {"baseTable":{"schema":"inventory","table":"stock_levels"},
             "columns":[{"column":"warehouse_id","type":"number","header":"Warehouse"},
                        {"column":"item_id","type":"number","header":"Item"},
                        {"column":"quantity","type":"number","header":"Quantity"}],
             "name":"Stock levels","pageSize":25}""";

    ChatHarness chat;
    SampleDatabaseTools database;

    @BeforeEach
    void start() throws Exception {
        database = SampleDatabaseTools.create("chat-e2e-");
        chat = new ChatHarness(List.of(new ApplyColumnChangeTool(), new ApplyFilterChangeTool(), new ApplyJoinChangeTool(),
                new ApplySortChangeTool(), new DiscoverTableReferenceTool(), database.search(), database.preview()));
    }

    @AfterEach
    void stop() {
        chat.close();
        database.close();
    }

    @Test
    void addTheWarehouseNameToThisInventoryTable() throws Exception {
        chat.model.enqueue(ModelScript.builder()
                .turn(t -> t.text("Let me look up the warehouses table.")
                        .toolCall("call_search", "search_database_schema", "{\"schema\":\"core\",", "\"table\":\"warehouses\"}"))
                .turn(t -> t.toolCall("call_search_join", "search_tools", "{\"query\":\"join another table\"}"))
                .turn(t -> t.toolCall("call_join", "apply_join_change", "{\"operation\":\"add\",\"join\":{\"table\":\"warehouses\",",
                        "\"schema\":\"core\",\"join_type\":\"LEFT\",\"relationship_from\":\"stock_levels.warehouse_id\",",
                        "\"relationship_to\":\"warehouses.id\",\"columns_to_add\":[\"name\"]}}"))
                .turn(t -> t.toolCall("call_preview", "preview_table_config", "{\"description\":\"Add the warehouse name\"}"))
                .say("Preview ready: the warehouse name is now a column. Accept or reject it before we continue.")
                .build());

        ObjectNode body = Json.object().put("id", "conv_e2e").put("trigger", "submit-message");
        ArrayNode messages = body.putArray("messages");
        messages.addObject().put("id", "u_1").put("role", "user").putArray("parts").addObject()
                .put("type", "text").put("text", "add the warehouse name to this inventory table");
        body.putObject("context").put("page", "tables").put("configId", "cfg_stock").set("state", parse(STATE));
        ChatHarness.Turn turn = chat.send(Json.write(body));

        // the model saw the schema search's answer, the join's valid config, and the preview
        List<RecordedRequest> requests = chat.model.requests();
        assertEquals(5, requests.size());
        assertTrue(requests.get(0).systemPrompt().contains("Base table: inventory.stock_levels"), requests.get(0).systemPrompt());
        assertTrue(toolMessage(requests.get(1), "call_search").toString().contains("warehouses"));
        JsonNode join = toolMessage(requests.get(3), "call_join");
        assertTrue(join.path("valid").asBoolean(), join.toString());
        assertTrue(requests.get(4).systemPrompt().contains("Joins: LEFT core.warehouses"), "the prompt renders the working config");

        JsonNode preview = turn.first("data-table-config-preview").path("data");
        assertFalse(preview.path("previewId").asText().isEmpty());
        assertEquals("Add the warehouse name", preview.path("description").asText());
        assertTrue(preview.path("sql").asText().contains("\"warehouses\""), preview.path("sql").asText());
        assertEquals(5, preview.path("rows").size(), "a sample of the joined rows");
        assertTrue(preview.path("config").path("data_source").get(0).path("select").path("foreign_tables").get(0)
                .path("table").asText().equals("warehouses"));
        assertEquals("stop", turn.first("finish").path("finishReason").asText());

        // and a real AI SDK client reads it all into one assistant message
        JsonNode message = AiSdkClient.read(turn.response().body(), null).path("message");
        assertEquals(1, AiSdkClientTest.parts(message, "data-table-config-preview").size());
        assertEquals("output-available", AiSdkClientTest.parts(message, "tool-preview_table_config").get(0).path("state").asText());
    }
}
