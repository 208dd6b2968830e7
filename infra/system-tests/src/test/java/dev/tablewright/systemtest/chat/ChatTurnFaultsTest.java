package dev.tablewright.systemtest.chat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.http.stream.InMemoryResponseStream;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.fakes.model.RecordedRequest;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.tablewright.systemtest.chat.ChatTurnTest.body;
import static dev.tablewright.systemtest.chat.ChatTurnTest.toolMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Model and client faults: every one ends the stream with a finish the client understands, never a hang. */
class ChatTurnFaultsTest {

    @AutoClose
    final ChatHarness chat = ChatHarness.overOperationTools();

    @Test
    void rateLimitsAndServerErrorsBeforeTheFirstByteAreRetriedWithBackoff() {
        chat.model.enqueue(ModelScript.builder()
                .error(429, "rate limited", Map.of("Retry-After", "0"))
                .error(503, "overloaded")
                .say("Here I am.")
                .build());
        ChatHarness.Turn turn = chat.send(body("hello"));
        assertEquals(3, chat.model.requests().size());
        assertEquals("Here I am.", turn.text());
        assertTrue(turn.stream().ofType("error").isEmpty());
        assertEquals("stop", turn.first("finish").path("finishReason").asText());
    }

    @Test
    void retriesAreBoundedAndTheLastFailureIsAPlainErrorPart() {
        chat.model.enqueue(ModelScript.builder().error(500, "boom").error(500, "boom").error(500, "boom").say("never").build());
        ChatHarness.Turn turn = chat.send(body("hello"));
        assertEquals(3, chat.model.requests().size(), "TurnLimits.modelAttempts");
        assertPlainError(turn, ChatHarness.ON_BEDROCK ? "Bedrock could not answer with us.amazon.nova-pro-v1:0 just now (an internal error)."
                : "The model service is unavailable (HTTP 500).");
        assertEquals(1, chat.model.remainingTurns());
    }

    @Test
    void aStreamCutMidAnswerEndsWithAnErrorPartAndFinishNotARetry() {
        chat.model.enqueue(ModelScript.builder()
                .turn(t -> t.text("I will add ", "the warehouse").cut())
                .say("never")
                .build());
        ChatHarness.Turn turn = chat.send(body("add the warehouse name"));
        assertEquals(1, chat.model.requests().size(), "part of the answer reached the client: no retry");
        assertEquals("I will add the warehouse", turn.text());
        List<String> types = turn.types();
        assertTrue(types.indexOf("text-end") < types.indexOf("error"), types.toString());
        assertPlainError(turn, "The connection to the model was lost mid-answer.");
    }

    @Test
    void aStreamCutInsideAToolCallsArgumentsClosesTheToolPartBeforeTheError() {
        chat.model.enqueue(ModelScript.builder()
                .turn(t -> t.toolCall("call_cut", "apply_column_change", "{\"operation\":\"add\",", "\"columns\":[").cut())
                .say("never")
                .build());
        ChatHarness.Turn turn = chat.send(body("add created_at"));
        List<String> types = turn.types();
        JsonNode closed = turn.first("tool-input-error");
        assertEquals("call_cut", closed.path("toolCallId").asText());
        assertEquals("apply_column_change", closed.path("toolName").asText());
        assertEquals("{\"operation\":\"add\",\"columns\":[", closed.path("input").asText(), "the input as far as it came");
        assertTrue(closed.path("errorText").asText().contains("cut off"), closed.toString());
        assertTrue(types.indexOf("tool-input-error") < types.indexOf("error"), types.toString());
        assertTrue(turn.stream().ofType("tool-input-available").isEmpty(), "the tool did not run");
        assertPlainError(turn, "The connection to the model was lost mid-answer.");
    }

    @Test
    void aModelThatWritesPastTheTurnsOutputCapIsCutOffWithFinishLength() throws Exception {
        chat.limits = chat.limits.withMaxOutputChars(2_000);
        String delta = "x".repeat(500);
        chat.model.enqueue(ModelScript.builder().turn(t -> {
            for (int i = 0; i < 200; i++) {
                t.delay(5).text(delta);
            }
        }).say("never").build());
        java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
        dev.tablewright.logging.StructuredLog.redirect(new java.io.PrintStream(log, true, java.nio.charset.StandardCharsets.UTF_8));
        ChatHarness.Turn turn;
        try {
            turn = chat.send(body("write forever"));
        } finally {
            dev.tablewright.logging.StructuredLog.redirect(System.out);
        }
        assertEquals("length", turn.first("finish").path("finishReason").asText());
        assertTrue(turn.stream().ofType("error").isEmpty(), turn.types().toString());
        String text = turn.text();
        assertTrue(text.startsWith(delta.repeat(4)), "what came before the cap reached the client");
        assertTrue(text.endsWith("output limit."), text.substring(Math.max(0, text.length() - 100)));
        assertFalse(text.contains(delta.repeat(5)), "nothing past the cap");
        assertEquals("client-gone", chat.model.awaitAnswered(0, Duration.ofSeconds(30)).answer().outcome(),
                "the model's stream was closed, not read to its end");
        JsonNode turnLine = log.toString(java.nio.charset.StandardCharsets.UTF_8).lines()
                .filter(l -> l.contains("\"chat turn\"")).map(dev.tablewright.json.Json::objectLiteral).findFirst().orElseThrow();
        assertEquals("output-cap", turnLine.path("Outcome").asText(), turnLine.toString());
        assertTrue(turnLine.path("outputChars").asLong() > 2_000, turnLine.toString());
    }

    @Test
    void malformedToolArgumentsBecomeAToolErrorTheModelSeesAndCanRecoverFrom() throws Exception {
        chat.model.enqueue(ModelScript.builder()
                .turn(t -> t.toolCall("call_bad", "apply_column_change", "{\"operation\":\"add\",\"columns\":[{\"name\":"))
                .turn(t -> t.toolCall("call_ok", "apply_column_change",
                        "{\"operation\":\"add\",\"columns\":[{\"name\":\"created_at\",\"pg_type\":\"timestamp without time zone\"}]}"))
                .say("Added created_at.")
                .build());
        ChatHarness.Turn turn = chat.send(body("add created_at"));
        JsonNode inputError = turn.first("tool-input-error");
        assertEquals("call_bad", inputError.path("toolCallId").asText());
        assertEquals("apply_column_change", inputError.path("toolName").asText());
        assertTrue(inputError.path("errorText").asText().contains("not a valid JSON object"));
        JsonNode seen = toolMessage(chat.model.requests().get(1), "call_bad");
        assertEquals("invalid_arguments", seen.path("error").path("code").asText());
        JsonNode repaired = toolMessage(chat.model.requests().get(2), "call_ok");
        assertTrue(repaired.path("valid").asBoolean(), repaired.toString());
        assertEquals("Added created_at.", turn.text());
    }

    @Test
    void aSlowModelPastTheTurnsTimeBudgetIsCutOffWithACleanFinish() throws Exception {
        chat.limits = chat.limits.withMaxTurnDuration(Duration.ofMillis(1000));
        chat.model.enqueue(ModelScript.builder()
                .turn(t -> t.text("Thinking").delay(3_000).text(" done"))
                .build());
        ChatHarness.Turn turn = chat.send(body("slow please"));
        assertTrue(turn.text().contains("I ran out of time for this turn."), turn.text());
        assertEquals("other", turn.first("finish").path("finishReason").asText());
        assertTrue(turn.stream().done(), "ends with [DONE]");
        // the scripted server looks for the closed stream after its 3 s pause
        RecordedRequest answered = chat.model.awaitAnswered(0, Duration.ofSeconds(10));
        assertEquals("client-gone", answered.answer().outcome(), "the model's stream was closed, not left running");
    }

    @Test
    void aClientThatDisconnectsStopsTheModelsStream() throws Exception {
        chat.model.enqueue(ModelScript.builder()
                .turn(t -> {
                    t.text("one ");
                    for (int i = 0; i < 50; i++) {
                        t.delay(100).text("more ");
                    }
                })
                .say("never asked")
                .build());
        AtomicInteger deltas = new AtomicInteger();
        ChatHarness.Turn turn = chat.send(body("talk a lot"), (InMemoryResponseStream r) -> r.onFlush(() -> {
            if (r.body().contains("\"text-delta\"") && deltas.incrementAndGet() == 1) {
                r.disconnect();
            }
        }));
        RecordedRequest answered = chat.model.awaitAnswered(0, Duration.ofSeconds(10));
        assertEquals("client-gone", answered.answer().outcome(), "the model's stream was closed");
        assertTrue(answered.answer().contentNanos().size() < 10, "stopped early: " + answered.answer().contentNanos().size());
        assertEquals(1, chat.model.requests().size(), "nothing more was asked of the model");
        assertTrue(turn.response().isClientGone());
    }

    static void assertPlainError(ChatHarness.Turn turn, String expected) {
        JsonNode error = turn.first("error");
        String text = error.path("errorText").asText();
        assertEquals(expected, text);
        assertFalse(text.contains("sk-test"), "no secret");
        assertFalse(text.contains("Exception") || text.contains("\tat "), "no stack trace");
        List<String> types = turn.types();
        assertEquals("finish", types.get(types.size() - 1));
        assertEquals("error", turn.first("finish").path("finishReason").asText());
        assertTrue(turn.stream().done());
    }

    @Test
    void argumentsHoldingAnOverlongNameAreRefusedAsTooLongNotAsMalformed() throws Exception {
        String name = "c".repeat(100_000);
        String arguments = "{\"config\":{\"name\":\"T\",\"data_source\":[{\"schema\":\"inventory\",\"source\":\"stock_levels\","
                + "\"select\":{\"columns\":[{\"name\":\"" + name + "\"}]}}],\"visual_settings\":{\"columns\":{\"" + name + "\":{\"type\":\"number\"}}}},"
                + "\"operation\":\"add\",\"columns\":[{\"name\":\"quantity\",\"pg_type\":\"integer\"}]}";
        chat.model.enqueue(ModelScript.builder()
                .turn(t -> t.toolCall("call_long", "apply_column_change", arguments))
                .say("That name is too long.")
                .build());
        ChatHarness.Turn turn = chat.send(body("add quantity"));
        JsonNode error = turn.first("tool-input-error");
        assertTrue(error.path("errorText").asText().contains("too long"), error.path("errorText").asText());
        JsonNode seen = toolMessage(chat.model.requests().get(1), "call_long");
        assertTrue(seen.toString().contains("too long"), seen.toString());
    }
}
