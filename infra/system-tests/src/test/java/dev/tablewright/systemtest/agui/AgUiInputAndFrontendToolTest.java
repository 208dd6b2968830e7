package dev.tablewright.systemtest.agui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.json.Json;
import dev.tablewright.localstack.local.LocalDeployment;
import dev.tablewright.systemtest.database.TwoDataSources;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.tablewright.systemtest.agui.AgUiDoorTest.events;
import static dev.tablewright.systemtest.agui.AgUiDoorTest.last;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The AG-UI door's other two pauses, driven by {@code @ag-ui/client}'s {@code HttpAgent}: a tool that needs the
 * user's input ends the run in an {@code input_required} interrupt whose form is JSON Schema; a bad value is a
 * {@code RUN_ERROR} naming the field (the interrupt stays open), a good one runs the paused call without asking the
 * model again. A frontend tool the model calls ends the run naming the call as pending; the next run carrying its
 * result continues the same turn.
 */
class AgUiInputAndFrontendToolTest {

    @AutoClose
    private static LocalDeployment stack;
    private static String token;

    @BeforeAll
    static void start() throws Exception {
        stack = LocalDeployment.start(LocalDeployment.Settings.forTest(Map.of("DATA_SOURCES", TwoDataSources.dataSourcesJson()),
                ModelScript.builder().build()));
        token = stack.issuer().mint(DevIssuer.DEV_USER);
    }

    static JsonNode run(ObjectNode scenario) throws Exception {
        JsonNode runs = AgUiClient.run(stack.aguiUrl(), token, scenario).path("runs");
        for (JsonNode run : runs) {
            assertEquals("[]", run.path("invalid").toString(), "every event valid against @ag-ui/core's schemas: " + run.path("types"));
            for (JsonNode s : run.path("states")) {
                assertTrue(s.path("equal").isNull() || s.path("equal").asBoolean(), "the deltas applied give the next snapshot: " + s);
            }
        }
        return runs;
    }

    @Test
    void anInputRequiredInterruptIsAnsweredAndThePausedCallRuns() throws Exception {
        var model = stack.model().scriptedServer();
        model.enqueue(ModelScript.builder()
                .turn(t -> t.toolCall("call_search", "search_database_schema", "{\"query\": \"returns\"}"))
                .say("Staging has the returns table.")
                .build());
        String thread = "agui-input-" + System.nanoTime();
        JsonNode runs = run(AgUiDoorTest.scenario(thread, AgUiDoorTest.say("Show the returns"),
                AgUiDoorTest.answer("resolved", "{\"database\": \"nowhere\"}"),
                AgUiDoorTest.answer("resolved", "{\"database\": \"staging\"}").put("answerRun", 0)));

        JsonNode asked = last(runs.get(0)).path("outcome");
        assertEquals("interrupt", asked.path("type").asText(), runs.get(0).path("types").toString());
        JsonNode interrupt = asked.path("interrupts").path(0);
        assertEquals("input_required", interrupt.path("reason").asText(), interrupt.toString());
        assertEquals("call_search", interrupt.path("toolCallId").asText());
        assertEquals("[\"production\",\"staging\"]", interrupt.path("responseSchema").path("properties").path("database")
                .path("enum").toString(), interrupt.toString());
        assertFalse(interrupt.path("expiresAt").asText().isEmpty(), interrupt.toString());

        JsonNode bad = last(runs.get(1));
        assertEquals("RUN_ERROR", bad.path("type").asText(), runs.get(1).path("types").toString());
        assertTrue(bad.path("message").asText().contains("database"), "names the field: " + bad);

        JsonNode answered = runs.get(2);
        assertTrue(answered.path("error").isNull(), answered.toString());
        JsonNode result = events(answered, "TOOL_CALL_RESULT").getFirst();
        assertEquals("call_search", result.path("toolCallId").asText());
        assertEquals("staging", Json.parse(result.path("content").asText()).path("database").asText(), result.toString());
        assertEquals("success", last(answered).path("outcome").path("type").asText());
    }

    @Test
    void aFrontendToolRoundTripContinuesTheSameTurn() throws Exception {
        var model = stack.model().scriptedServer();
        model.enqueue(ModelScript.builder()
                .turn(t -> t.toolCall("call_toast", "show_toast", "{\"message\": \"Building your table\"}"))
                .say("The toast was shown.")
                .build());
        ObjectNode first = AgUiDoorTest.say("Tell me when you start");
        first.putArray("tools").addObject().put("name", "show_toast").put("description", "Shows a toast in the page.")
                .putObject("parameters").put("type", "object").putObject("properties").putObject("message").put("type", "string");
        ObjectNode second = Json.object();
        second.putObject("toolResult").put("id", "tr" + System.nanoTime()).put("toolCallId", "call_toast").put("content", "{\"shown\": true}");
        second.set("tools", first.get("tools"));
        int before = model.requests().size();
        JsonNode runs = run(AgUiDoorTest.scenario("agui-toast-" + System.nanoTime(), first, second));

        JsonNode called = runs.get(0);
        assertTrue(events(called, "TOOL_CALL_START").stream().anyMatch(e -> e.path("toolCallName").asText().equals("show_toast")));
        assertTrue(events(called, "TOOL_CALL_RESULT").isEmpty(), "the door does not answer the client's call");
        assertEquals("[\"call_toast\"]", last(called).path("outcome").path("pendingToolCallIds").toString(), last(called).toString());

        JsonNode continued = runs.get(1);
        assertTrue(continued.path("error").isNull(), continued.toString());
        assertTrue(events(continued, "TEXT_MESSAGE_CONTENT").stream().anyMatch(e -> e.path("delta").asText().contains("toast was shown")));
        assertEquals(2, model.requests().size() - before, "one model call each run: the result went straight back");
        assertTrue(Json.write(model.requests().getLast().messages()).contains("shown"), "the model read the client's result");
    }
}
