package dev.tablewright.systemtest.conversations;

import dev.tablewright.fakes.configs.SampleConfigs;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.localstack.local.LocalDeployment;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.fakes.model.RecordedRequest;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A conversation that lasts: 40 turns in the AI SDK's persistence form against the local stack, each changing the
 * filter of a two-column config and previewing it. What the model is sent stays bounded by the memory budget
 * (the system prompt with the working config, the last turns whole, a digest of the older ones) instead of growing
 * with the whole history, every tool result it is sent answers a call of the same request, and the last turn still
 * knows the config and its current filter.
 */
class LongConversationTest {

    @AutoClose
    private static LocalDeployment stack;

    @BeforeAll
    static void start() throws Exception {
        stack = LocalDeployment.start(LocalDeployment.Settings.forTest(Map.of(), ModelScript.builder().build()));
    }

    /** Turn n sets the quantity filter to 100 + n: odd turns add it, even turns remove the previous one. */
    static ModelScript turn(int n) {
        String filter = n % 2 == 1
                ? "{\"operation\": \"add\", \"filter\": {\"column\": \"quantity\", \"operator\": \"gt\", \"value\": " + (100 + n) + "}}"
                : "{\"operation\": \"remove\", \"filter\": {\"column\": \"quantity\", \"operator\": \"gt\", \"value\": " + (99 + n) + "}}";
        ModelScript.Builder script = ModelScript.builder();
        if (n == 1) {
            script.turn(t -> t.toolCall("call_cols", "apply_column_change", SampleConfigs.STOCK_COLUMNS_CHANGE.formatted(0)));
        }
        return script
                .turn(t -> t.toolCall("call_f" + n, "apply_filter_change", filter))
                .turn(t -> t.toolCall("call_p" + n, "preview_table_config", "{\"description\": \"Filter of turn " + n + "\"}"))
                .say("Turn " + n + ": here is the preview with the filter changed.")
                .build();
    }

    @Test
    void fortyTurnsSendTheModelABoundedHistoryThatStillKnowsTheConfig() throws Exception {
        String token = stack.issuer().mint(DevIssuer.DEV_USER);
        String conversation = "conv-long-" + System.nanoTime();
        var model = stack.model().scriptedServer();
        int[] firstRequestChars = new int[41];
        RecordedRequest last = null;
        for (int n = 1; n <= 40; n++) {
            int before = model.requests().size();
            model.enqueue(turn(n));
            List<JsonNode> parts = ConversationTurnsTest.turn(stack.chatUrl(), token, conversation, "u" + n, "Change the quantity filter, turn " + n);
            assertEquals("stop", ConversationTurnsTest.only(parts, "finish").path("finishReason").asText());
            ConversationTurnsTest.only(parts, "data-table-config-preview");
            List<RecordedRequest> requests = model.requests().subList(before, model.requests().size());
            for (RecordedRequest request : requests) {
                assertEveryToolMessageAnswersACallOfTheSameRequest(request.messages(), n);
            }
            firstRequestChars[n] = Json.write(requests.getFirst().messages()).length();
            last = requests.getFirst();
        }
        assertTrue(firstRequestChars[40] <= 2 * firstRequestChars[5], "turn 5: " + firstRequestChars[5] + ", turn 40: " + firstRequestChars[40]);
        assertTrue(firstRequestChars[40] <= 60_000, "turn 40: " + firstRequestChars[40]);

        String system = last.messages().get(0).path("content").asText();
        assertTrue(system.contains("Stock 0"), "the config is named: " + system);
        assertTrue(system.contains("quantity gt 139"), "the filter as turn 39 left it: " + system);
        assertTrue(system.contains("Earlier in this conversation"), system);
        String sent = Json.write(last.messages());
        assertTrue(sent.contains("Change the quantity filter, turn 39"), "the last turns go whole");
        assertTrue(sent.contains("Change the quantity filter, turn 40"));
    }

    static void assertEveryToolMessageAnswersACallOfTheSameRequest(JsonNode messages, int turn) {
        Set<String> calls = new HashSet<>();
        Set<String> answered = new HashSet<>();
        for (JsonNode m : messages) {
            m.path("tool_calls").forEach(c -> calls.add(c.path("id").asText()));
            if (m.path("role").asText().equals("tool")) {
                String id = m.path("tool_call_id").asText();
                assertTrue(calls.contains(id), "turn " + turn + ": a tool message without its call: " + id);
                assertTrue(answered.add(id), "turn " + turn + ": answered twice: " + id);
            }
        }
        assertEquals(calls, answered, "turn " + turn + ": every call is answered");
    }
}
