package dev.tablewright.systemtest.agui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.fakes.configs.SampleConfigs;
import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.json.Json;
import dev.tablewright.localstack.local.LocalDeployment;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The AG-UI door over the local stack (DynamoDB Local, the sample database, the scripted model), driven by the
 * official {@code @ag-ui/client} 1.0 {@code HttpAgent} (infra/agui-client): every event parses with
 * {@code @ag-ui/core}'s schemas and the deltas applied to a snapshot give the next one; a turn builds a table and
 * ends in the keep interrupt; approving saves it at version 1, once, whatever is resent (the same resume sent again
 * streams the first outcome again); rejecting discards it; cancelling leaves it pending; forged, foreign, stale, partial
 * and duplicated resumes change nothing and end in {@code RUN_ERROR} with a reason; a malformed input is a 400 naming the field, a missing token a 401; never a 5xx.
 */
class AgUiDoorTest {

    @AutoClose
    private static LocalDeployment stack;
    private static String token;

    @BeforeAll
    static void start() throws Exception {
        stack = LocalDeployment.start(LocalDeployment.Settings.forTest(Map.of(), ModelScript.builder().build()));
        token = stack.issuer().mint(DevIssuer.DEV_USER);
    }

    /** A turn that builds and previews a new config, then, for each later run, {@code afterAnswer}. */
    static ModelScript previewTurn(String... afterAnswer) {
        ModelScript.Builder b = ModelScript.builder()
                .turn(t -> t.toolCall("call_cols", "apply_column_change", SampleConfigs.STOCK_COLUMNS_CHANGE.formatted(System.nanoTime())))
                .turn(t -> t.toolCall("call_prev", "preview_table_config", "{\"description\": \"Stock levels\"}"))
                .say("Here is the preview.");
        for (String s : afterAnswer) {
            b.say(s);
        }
        return b.build();
    }

    static ObjectNode scenario(String threadId, ObjectNode... steps) {
        ObjectNode scenario = Json.object().put("threadId", threadId);
        ArrayNode array = scenario.putArray("steps");
        for (ObjectNode s : steps) {
            array.add(s);
        }
        return scenario;
    }

    static ObjectNode say(String text) {
        ObjectNode step = Json.object();
        step.putObject("message").put("id", "u" + System.nanoTime()).put("content", text);
        return step;
    }

    static ObjectNode answer(String status, String payload) {
        ObjectNode step = Json.object();
        ObjectNode answer = step.putObject("answer").put("status", status);
        if (payload != null) {
            answer.set("payload", Json.objectLiteral(payload));
        }
        return step;
    }

    /** A request HttpAgent would not send: the server's own rules answer it. */
    static ObjectNode raw(ObjectNode step) {
        return step.put("raw", true);
    }

    static JsonNode run(ObjectNode scenario) throws Exception {
        JsonNode out = AgUiClient.run(stack.aguiUrl(), token, scenario).path("runs");
        for (JsonNode run : out) {
            assertEquals("[]", run.path("invalid").toString(), "every event valid against @ag-ui/core's schemas: " + run.path("types"));
            for (JsonNode s : run.path("states")) {
                assertTrue(s.path("equal").isNull() || s.path("equal").asBoolean(), "the deltas applied give the next snapshot: " + s);
            }
            assertTrue(run.path("status").isMissingNode() || run.path("status").asInt() < 500, run.toString());
        }
        return out;
    }

    static JsonNode last(JsonNode run) {
        return run.path("events").get(run.path("events").size() - 1);
    }

    static List<JsonNode> events(JsonNode run, String type) {
        List<JsonNode> out = new ArrayList<>();
        run.path("events").forEach(e -> {
            if (e.path("type").asText().equals(type)) {
                out.add(e);
            }
        });
        return out;
    }

    static JsonNode keepInterrupt(JsonNode run) {
        JsonNode finished = last(run);
        assertEquals("RUN_FINISHED", finished.path("type").asText(), run.path("types").toString());
        assertEquals("interrupt", finished.path("outcome").path("type").asText(), finished.toString());
        JsonNode interrupt = finished.path("outcome").path("interrupts").path(0);
        assertEquals("tool_call", interrupt.path("reason").asText(), interrupt.toString());
        return interrupt;
    }

    static String previewStatus(String previewId) throws Exception {
        HttpResponse<String> r = stack.call("GET", "/previews/" + previewId, token, null);
        assertEquals(200, r.statusCode(), r.body());
        return Json.parse(r.body()).path("status").asText();
    }

    static void assertRunError(JsonNode run, String code, String says) {
        assertEquals(200, run.path("status").asInt(), run.toString());
        JsonNode error = last(run);
        assertEquals("RUN_ERROR", error.path("type").asText(), run.path("types").toString());
        assertEquals(code, error.path("code").asText(), error.toString());
        assertTrue(error.path("message").asText().contains(says), error.toString());
        assertTrue(events(run, "TOOL_CALL_RESULT").isEmpty() && events(run, "TEXT_MESSAGE_START").isEmpty(), run.path("types").toString());
    }

    @Test
    void aTurnEndsInTheKeepInterruptAndApprovingSavesItAtVersionOneOnceWhateverIsResent() throws Exception {
        stack.model().scriptedServer().enqueue(previewTurn("Saved it as a new table."));
        String thread = "agui-keep-" + System.nanoTime();
        JsonNode runs = run(scenario(thread, say("Show stock levels"), answer("resolved", "{\"approved\": true}"),
                raw(answer("resolved", "{\"approved\": true}")).put("answerRun", 0),
                raw(answer("resolved", "{\"approved\": true}")).put("answerRun", 0)));

        JsonNode first = runs.get(0);
        assertTrue(first.path("error").isNull(), first.path("error").toString());
        assertEquals("RUN_STARTED", first.path("types").get(0).asText());
        assertEquals("STATE_SNAPSHOT", first.path("types").get(1).asText());
        JsonNode interrupt = keepInterrupt(first);
        String previewId = interrupt.path("metadata").path("previewId").asText();
        String callId = interrupt.path("toolCallId").asText();
        assertTrue(events(first, "TOOL_CALL_START").stream().anyMatch(e -> e.path("toolCallId").asText().equals(callId)
                && e.path("toolCallName").asText().equals("accept_preview")), first.path("types").toString());
        assertEquals("[\"approved\"]", interrupt.path("responseSchema").path("required").toString());
        assertFalse(interrupt.path("expiresAt").asText().isEmpty(), interrupt.toString());
        assertEquals(previewId, first.path("state").path("preview").path("previewId").asText(), first.path("state").toString());
        assertFalse(first.path("state").path("workingConfig").isNull(), "the working config is shared");
        assertFalse(events(first, "STATE_DELTA").isEmpty(), "the working config and the preview came as deltas");
        assertEquals(List.of("STATE_SNAPSHOT", "MESSAGES_SNAPSHOT", "RUN_FINISHED"),
                List.of(first.path("types").get(first.path("types").size() - 3).asText(),
                        first.path("types").get(first.path("types").size() - 2).asText(), last(first).path("type").asText()));

        JsonNode approved = runs.get(1);
        assertTrue(approved.path("error").isNull(), approved.path("error").toString());
        JsonNode result = events(approved, "TOOL_CALL_RESULT").getFirst();
        assertEquals(callId, result.path("toolCallId").asText(), "on the original call");
        assertTrue(events(approved, "TOOL_CALL_START").stream().noneMatch(e -> e.path("toolCallId").asText().equals(callId)));
        JsonNode saved = Json.parse(result.path("content").asText());
        assertEquals(1, saved.path("version").asInt(), saved.toString());
        String configId = saved.path("configId").asText();
        assertTrue(approved.path("state").path("preview").isNull(), approved.path("state").toString());
        assertTrue(events(approved, "TEXT_MESSAGE_CONTENT").stream().anyMatch(e -> e.path("delta").asText().contains("Saved it")),
                "the model went on in that run");
        assertEquals("success", last(approved).path("outcome").path("type").asText());

        for (int resent = 2; resent <= 3; resent++) { // the same resume again: the first outcome again, nothing carried out
            JsonNode again = runs.get(resent);
            assertEquals(200, again.path("status").asInt(), again.toString());
            JsonNode repeated = events(again, "TOOL_CALL_RESULT").getFirst();
            assertEquals(callId, repeated.path("toolCallId").asText(), "on the original call");
            assertEquals(result.path("content").asText(), repeated.path("content").asText(), "the first outcome");
            assertTrue(events(again, "TEXT_MESSAGE_START").isEmpty(), "the model is not asked again: " + again.path("types"));
            assertEquals("success", last(again).path("outcome").path("type").asText(), again.path("types").toString());
        }
        HttpResponse<String> config = stack.call("GET", "/configs/" + configId + "/versions", token, null);
        assertEquals(200, config.statusCode(), config.body());
        assertEquals(1, Json.parse(config.body()).path("versions").size(), "saved once: " + config.body());
        assertEquals("accepted", previewStatus(previewId));

        HttpResponse<String> listed = stack.call("GET", "/conversations", token, null);
        assertTrue(listed.body().contains(thread) && listed.body().contains("Show stock levels"), "a titled conversation: " + listed.body());
    }

    @Test
    void aDroppedConnectionDoesNotLoseTheTurn() throws Exception {
        var model = stack.model().scriptedServer();
        model.enqueue(ModelScript.builder().say("The answer you missed.").say("And this one you see.").build());
        String thread = "agui-drop-" + System.nanoTime();
        JsonNode dropped = run(scenario(thread, raw(say("What did I miss?")).put("drop", true))).get(0);
        assertEquals("RUN_STARTED", dropped.path("types").get(0).asText(), dropped.toString());

        // the running turn read again from its start and followed to its end (the kit's …/{threadId}/stream)
        HttpResponse<String> followed = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create(stack.aguiUrl() + "/" + thread + "/stream")).header("authorization", "Bearer " + token).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertTrue(followed.statusCode() == 204 || followed.body().contains("\"RUN_FINISHED\""), followed.statusCode() + " " + followed.body());

        JsonNode next = run(scenario(thread, say("And now?"))).get(0);
        String shown = Json.write(events(next, "MESSAGES_SNAPSHOT").getFirst());
        assertTrue(shown.contains("The answer you missed.") && shown.contains("And this one you see."), shown);
    }

    @Test
    void rejectingDiscardsThePreviewAndCancellingLeavesItPending() throws Exception {
        var model = stack.model().scriptedServer();
        model.enqueue(previewTurn("Understood: nothing was saved."));
        JsonNode rejected = run(scenario("agui-reject-" + System.nanoTime(), say("Show stock levels"),
                answer("resolved", "{\"approved\": false, \"reason\": \"not these columns\"}")));
        String previewId = keepInterrupt(rejected.get(0)).path("metadata").path("previewId").asText();
        JsonNode result = Json.parse(events(rejected.get(1), "TOOL_CALL_RESULT").getFirst().path("content").asText());
        assertEquals("rejected", result.path("status").asText(), result.toString());
        assertTrue(result.path("message").asText().contains("declined") && result.path("message").asText().contains("not these columns"));
        assertEquals("rejected", previewStatus(previewId));

        model.enqueue(previewTurn("It stays pending."));
        JsonNode cancelled = run(scenario("agui-cancel-" + System.nanoTime(), say("Show stock levels"), answer("cancelled", null)));
        String pending = keepInterrupt(cancelled.get(0)).path("metadata").path("previewId").asText();
        assertTrue(cancelled.get(1).path("error").isNull(), cancelled.get(1).toString());
        assertEquals(pending, events(cancelled.get(1), "STATE_SNAPSHOT").getFirst().path("snapshot").path("preview").path("previewId").asText(),
                "the run starts from the pending preview");
        assertEquals("pending", previewStatus(pending), "nothing saved, still reachable by the HTTP route");
    }

    @Test
    void forgedForeignStalePartialAndMalformedRunsChangeNothing() throws Exception {
        stack.model().scriptedServer().enqueue(previewTurn());
        String thread = "agui-rules-" + System.nanoTime();
        ObjectNode forged = raw(Json.object());
        forged.putArray("resume").addObject().put("interruptId", "forged").put("status", "resolved").putObject("payload").put("approved", true);
        ObjectNode partial = raw(say("never mind, something else"));
        ObjectNode twice = raw(Json.object());
        JsonNode runs = run(scenario(thread, say("Show stock levels"), forged, partial));
        String interruptId = keepInterrupt(runs.get(0)).path("id").asText();
        String previewId = keepInterrupt(runs.get(0)).path("metadata").path("previewId").asText();
        assertRunError(runs.get(1), "not_found", "forged");
        assertRunError(runs.get(2), "invalid_request", interruptId);
        assertEquals("pending", previewStatus(previewId));

        // the same interrupt answered twice in one resume
        ArrayNode duplicated = twice.putArray("resume");
        duplicated.addObject().put("interruptId", interruptId).put("status", "cancelled");
        duplicated.addObject().put("interruptId", interruptId).put("status", "cancelled");
        // another user answering this user's interrupt: their thread of this id does not exist
        ObjectNode foreign = raw(Json.object()).put("token", stack.issuer().mint("someone-else"));
        foreign.putArray("resume").addObject().put("interruptId", interruptId).put("status", "resolved").putObject("payload").put("approved", true);
        JsonNode more = run(scenario(thread, twice, foreign));
        assertRunError(more.get(0), "invalid_request", "twice");
        assertRunError(more.get(1), "not_found", interruptId);
        assertEquals("pending", previewStatus(previewId));

        // stale: kept elsewhere (the HTTP route) before the resume comes
        HttpResponse<String> accepted = stack.call("POST", "/previews/" + previewId + "/accept", token, "{}");
        assertTrue(accepted.statusCode() == 200 || accepted.statusCode() == 201, accepted.statusCode() + " " + accepted.body());
        ObjectNode stale = raw(Json.object());
        stale.putArray("resume").addObject().put("interruptId", interruptId).put("status", "resolved").putObject("payload").put("approved", true);
        assertRunError(run(scenario(thread, stale)).get(0), "preview_not_pending", "no longer");

        ObjectNode malformed = raw(Json.object());
        malformed.putObject("body").put("messages", "not a list");
        ObjectNode anonymous = raw(say("hello")).put("token", "");
        JsonNode refused = run(scenario(thread, malformed, anonymous));
        assertEquals(400, refused.get(0).path("status").asInt(), refused.get(0).toString());
        assertEquals("messages", Json.parse(refused.get(0).path("body").asText()).path("error").path("fields").path(0).path("field").asText(),
                refused.get(0).toString());
        assertEquals(401, refused.get(1).path("status").asInt(), refused.get(1).toString());
    }
}
