package dev.tablewright.localstack.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.prompt.ConfigSummary;
import dev.tablewright.agent.prompt.SystemPrompt;
import dev.tablewright.codec.ConfigJson;
import dev.tablewright.editable.TableSettingsFields;
import dev.tablewright.fakes.model.RecordedRequest;
import dev.tablewright.fakes.model.ScriptedTurn;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The demo model's decisions, request by request: it reads the last user message, this turn's tool results and the
 * working config in the system prompt, so the same request decides the same whatever history comes before it (the
 * chat may send all of it, or only a digest and the last few turns).
 */
class DemoModelTest {

    private static final DemoModel MODEL = new DemoModel();
    private static final List<String> CORE = List.of("search_database_schema", "apply_column_change", "apply_filter_change",
            "preview_table_config", "search_tools", "update_editable_status");

    private static final String SAVED_STOCK = """
            {"id": "cfg_7", "name": "Stock", "data_source": [{"schema": "inventory", "source": "stock_levels",
              "select": {"columns": [{"name": "item_id"}, {"name": "quantity"}, {"name": "name", "table": "warehouses"}],
                         "foreign_tables": [{"table": "warehouses", "schema": "core", "join_type": "LEFT",
                                             "relationship_from": "stock_levels.warehouse_id", "relationship_to": "warehouses.id"}]}}],
             "visual_settings": {"columns": {"item_id": {"type": "number"}, "quantity": {"type": "number"}, "name": {"type": "string"}}}}""";

    private static String systemPrompt(String configJson, String configId) throws Exception {
        String summary = configJson == null ? ConfigSummary.render(null) : ConfigSummary.render(ConfigJson.read(Json.parse(configJson)).config());
        return SystemPrompt.of("tables", summary, TableSettingsFields.of(configId, "Stock", null, null), CORE, 8).render();
    }

    /** A chat-completions request body: the system prompt, then messages given as role/content pairs or tool steps. */
    private static final class Body {
        final ObjectNode json = Json.object().put("model", DemoModel.NAME).put("stream", true);
        final ArrayNode messages = json.putArray("messages");
        int calls;

        Body(String systemPrompt, List<String> tools) {
            messages.addObject().put("role", "system").put("content", systemPrompt);
            ArrayNode offered = json.putArray("tools");
            tools.forEach(t -> offered.addObject().put("type", "function").putObject("function").put("name", t));
        }

        Body user(String text) {
            messages.addObject().put("role", "user").put("content", text);
            return this;
        }

        Body assistant(String text) {
            messages.addObject().put("role", "assistant").put("content", text);
            return this;
        }

        Body step(String tool, String arguments, String result) {
            return step(List.<String[]>of(new String[]{tool, arguments, result}));
        }

        /** One answer of the model with these calls ({tool, arguments, result} each), then their results. */
        Body step(List<String[]> made) {
            ObjectNode assistant = messages.addObject().put("role", "assistant");
            assistant.putNull("content");
            ArrayNode toolCalls = assistant.putArray("tool_calls");
            List<String> ids = new ArrayList<>();
            for (String[] m : made) {
                String id = "call_" + (++calls);
                ids.add(id);
                toolCalls.addObject().put("id", id).put("type", "function").putObject("function").put("name", m[0]).put("arguments", m[1]);
            }
            for (int i = 0; i < made.size(); i++) {
                messages.addObject().put("role", "tool").put("tool_call_id", ids.get(i)).put("content", made.get(i)[2]);
            }
            return this;
        }

        ScriptedTurn.Completion answer() {
            return (ScriptedTurn.Completion) MODEL.apply(new RecordedRequest(0, "/v1/chat/completions", Map.of(), json, 0,
                    new RecordedRequest.Answer()));
        }
    }

    private static String text(ScriptedTurn.Completion c) {
        StringBuilder out = new StringBuilder();
        c.steps().stream().filter(s -> s instanceof ScriptedTurn.Step.Text).forEach(s -> out.append(((ScriptedTurn.Step.Text) s).delta()));
        return out.toString();
    }

    /** The completion's tool calls as "name arguments", one a line, or null when it calls none. */
    private static String call(ScriptedTurn.Completion c) {
        List<String> calls = new ArrayList<>();
        for (ScriptedTurn.Step s : c.steps()) {
            if (s instanceof ScriptedTurn.Step.ToolCallStart start) {
                calls.add(start.name() + " ");
            } else if (s instanceof ScriptedTurn.Step.ToolArguments a) {
                calls.set(a.index(), calls.get(a.index()) + a.fragment());
            }
        }
        return calls.isEmpty() ? null : String.join("\n", calls);
    }

    @Test
    void theSameLastMessageOnTheSameConfigDecidesTheSameWhateverHistoryComesBefore() throws Exception {
        String prompt = systemPrompt(SAVED_STOCK, "cfg_7");
        String alone = call(new Body(prompt, CORE).user("Only show quantities above 100").answer());
        Body history = new Body(prompt, CORE).user("Show stock levels with their warehouse name")
                .step("search_database_schema", "{\"name\":\"stock_level\"}", "{\"tables\":[]}")
                .assistant("Here is the preview.")
                .user("Only show quantities above 100").assistant("Here is the preview, an update of version 1.")
                .user("Sort by quantity descending").assistant("Here is the preview.")
                .user("Only show quantities above 100");
        assertEquals("apply_filter_change {\"operation\":\"add\",\"filter\":{\"column\":\"quantity\",\"operator\":\"gt\",\"value\":100}}", alone);
        assertEquals(alone, call(history.answer()));
    }

    @Test
    void aChangeGoesOperationThenPreviewThenSaysWhatThePreviewShows() throws Exception {
        String prompt = systemPrompt(SAVED_STOCK, "cfg_7");
        Body turn = new Body(prompt, CORE).user("Only show quantities above 100");
        turn.step("apply_filter_change", "{\"operation\":\"add\",\"filter\":{\"column\":\"quantity\",\"operator\":\"gt\",\"value\":100}}",
                "{\"valid\":true,\"config\":\"(omitted)\",\"errors\":[],\"applied\":[\"filter quantity gt 100 added\"]}");
        assertEquals("preview_table_config {\"description\":\"Only rows with quantity above 100\"}", call(turn.answer()));
        turn.step("preview_table_config", "{}", "{\"valid\":true,\"previewId\":\"prv_1\",\"configId\":\"cfg_7\",\"isUpdate\":true,"
                + "\"baseVersion\":1,\"description\":\"Only rows with quantity above 100\",\"rows\":[{},{}],\"more\":false}");
        ScriptedTurn.Completion closing = turn.answer();
        assertEquals(null, call(closing));
        assertTrue(text(closing).contains("an update of version 1: only rows with quantity above 100 (2 sample rows)"), text(closing));
    }

    @Test
    void aToolNotOfferedIsFoundThroughTheCatalogueFirst() throws Exception {
        Body turn = new Body(systemPrompt(SAVED_STOCK, "cfg_7"), CORE).user("Sort by quantity descending");
        ScriptedTurn.Completion first = turn.answer();
        assertEquals("search_tools {\"query\":\"apply sort change\"}", call(first));
        assertTrue(text(first).startsWith("Sorting by quantity descending"), text(first));
        turn.step("search_tools", "{\"query\":\"apply sort change\"}", "{\"tools\":[{\"name\":\"apply_sort_change\"}]}");
        assertEquals("apply_sort_change {\"operation\":\"set\",\"sort\":[{\"column\":\"quantity\",\"direction\":\"desc\"}]}",
                call(turn.answer()));
    }

    @Test
    void aRefusedChangeIsExplainedNotRepaired() throws Exception {
        Body turn = new Body(systemPrompt(SAVED_STOCK, "cfg_7"), CORE).user("Only show quantities containing 5");
        turn.step("apply_filter_change", "{}", "{\"valid\":false,\"errors\":[{\"field\":\"data_source[0].filters[0].operator\","
                + "\"message\":\"contains does not suit a number column\"}]}");
        ScriptedTurn.Completion answer = turn.answer();
        assertEquals(null, call(answer));
        assertTrue(text(answer).contains("apply_filter_change answered: data_source[0].filters[0].operator: contains does not suit"), text(answer));
        assertTrue(text(answer).contains("offline demo model"), text(answer));
    }

    @Test
    void whatItDoesNotUnderstandItSaysPlainlyWithWhatItIsAndHowToConnectALiveModel() throws Exception {
        for (String message : List.of("What is the weather in Berlin?", "Make it look nicer")) {
            ScriptedTurn.Completion answer = new Body(systemPrompt(SAVED_STOCK, "cfg_7"), CORE).user(message).answer();
            String text = text(answer);
            assertEquals(null, call(answer));
            assertTrue(text.startsWith("I did not understand that."), text);
            assertTrue(text.contains("offline demo model") && text.contains("not a language model"), text);
            assertTrue(text.contains("\"Show stock levels with their warehouse name\""), text);
            assertTrue(text.contains("OPENAI_API_KEY"), text);
        }
        String noTable = text(new Body(systemPrompt(null, null), CORE).user("Sort by quantity descending").answer());
        assertTrue(noTable.startsWith("There is no table to change yet"), noTable);
    }

    private static final String STOCK_LEVELS = """
            {"tables": [{"schema": "inventory", "name": "stock_levels", "primaryKey": ["warehouse_id", "item_id"],
              "columns": [{"name": "warehouse_id", "type": "integer"}, {"name": "item_id", "type": "integer"},
                          {"name": "quantity", "type": "integer"}, {"name": "reorder_level", "type": "integer"},
                          {"name": "last_counted_at", "type": "timestamp without time zone"}],
              "references": ["(warehouse_id) -> core.warehouses(id)", "(item_id) -> inventory.items(id)"]}]}""";

    @Test
    void aNewTableSearchesTheSchemaPicksAFreeNameThenColumnsJoinAndPreview() throws Exception {
        Body turn = new Body(systemPrompt(null, null), CORE).user("Show stock levels with their warehouse name");
        ScriptedTurn.Completion first = turn.answer();
        assertEquals("search_database_schema {\"name\":\"stock_level\",\"include_columns\":true}\n"
                + "search_tools {\"query\":\"list table configs\"}", call(first), "two calls that do not wait on each other: one step");
        assertEquals("Let me look up the stock levels table.", text(first));
        turn.step(List.of(new String[]{"search_database_schema", "{}", STOCK_LEVELS},
                new String[]{"search_tools", "{\"query\":\"list table configs\"}", "{\"tools\":[{\"name\":\"list_table_configs\"}]}"}));
        assertEquals("list_table_configs {\"limit\":50}\nsearch_tools {\"query\":\"apply join change\"}", call(turn.answer()));
        // saved tables of the user's hold the name and the next: the new one is numbered past them
        turn.step(List.of(new String[]{"list_table_configs", "{\"limit\":50}", """
                        {"configs": [{"configId": "cfg_1", "name": "Stock levels with their warehouse name", "version": 1},
                                     {"configId": "cfg_2", "name": "stock levels with their warehouse name 2", "version": 3}]}"""},
                new String[]{"search_tools", "{\"query\":\"apply join change\"}", "{\"tools\":[]}"}));
        JsonNode columns = Json.parse(call(turn.answer()).substring("apply_column_change ".length()));
        assertEquals("Stock levels with their warehouse name 3", columns.path("config").path("name").asText());
        assertEquals("stock_levels", columns.path("config").path("data_source").path(0).path("source").asText());
        List<String> names = new ArrayList<>();
        columns.path("columns").forEach(c -> names.add(c.path("name").asText()));
        assertEquals(List.of("item_id", "quantity", "reorder_level"), names, "the first three, without the key the join replaces");
        turn.step("apply_column_change", "{}", "{\"valid\":true,\"errors\":[]}");
        assertEquals("apply_join_change {\"operation\":\"add\",\"join\":{\"table\":\"warehouses\",\"schema\":\"core\","
                + "\"relationship_from\":\"stock_levels.warehouse_id\",\"relationship_to\":\"warehouses.id\",\"columns_to_add\":[\"name\"]}}",
                call(turn.answer()));
        turn.step("apply_join_change", "{}", "{\"valid\":true,\"errors\":[]}");
        assertEquals("preview_table_config {\"description\":\"Stock levels with their warehouse name\"}", call(turn.answer()));
        turn.step("preview_table_config", "{}", "{\"valid\":true,\"isUpdate\":false,\"description\":\"Stock levels with their warehouse name\",\"rows\":[{}],\"more\":true}");
        String closing = text(turn.answer());
        assertTrue(closing.startsWith("Here is the preview, a new table: stock levels with their warehouse name (1+ sample rows)."), closing);
        assertTrue(closing.contains("\"Only show rows with quantity above 100\""), closing);
        assertFalse(closing.contains("left out"), closing);
    }

    @Test
    void aRefusalInTheLastStepEndsTheTurnWithItsExplanation() throws Exception {
        Body turn = new Body(systemPrompt(null, null), CORE).user("Show stock levels with their warehouse name");
        turn.step(List.of(new String[]{"search_database_schema", "{}", "{\"error\":{\"code\":\"unavailable\",\"message\":\"the database is not reachable\"}}"},
                new String[]{"search_tools", "{\"query\":\"list table configs\"}", "{\"tools\":[]}"}));
        String text = text(turn.answer());
        assertTrue(text.startsWith("That did not go through: search_database_schema answered: the database is not reachable."), text);
    }

    @Test
    void aSavedTableIsChangedNotReplaced() throws Exception {
        String text = text(new Body(systemPrompt(SAVED_STOCK, "cfg_7"), CORE).user("Show orders with their customer name").answer());
        assertTrue(text.contains("cfg_7") && text.contains("new conversation"), text);
    }
}
