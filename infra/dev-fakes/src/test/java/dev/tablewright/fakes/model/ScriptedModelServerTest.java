package dev.tablewright.fakes.model;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.errors.InternalServerException;
import com.openai.errors.RateLimitException;
import com.openai.helpers.ChatCompletionAccumulator;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionFunctionTool;
import com.openai.models.chat.completions.ChatCompletionMessageFunctionToolCall;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The scripted model against the real openai-java client: what it replays must parse as OpenAI's answers do. */
class ScriptedModelServerTest {

    private ScriptedModelServer model;
    private OpenAIClient client;

    @BeforeEach
    void start() throws Exception {
        model = ScriptedModelServer.start();
        client = OpenAIOkHttpClient.builder().baseUrl(model.baseUrl()).apiKey("sk-test-not-a-secret").maxRetries(0)
                .timeout(Duration.ofSeconds(20)).build();
    }

    @AfterEach
    void stop() {
        client.close();
        model.close();
    }

    private static ChatCompletionCreateParams.Builder params() {
        FunctionDefinition search = FunctionDefinition.builder().name("search_schema").description("Find tables and columns")
                .parameters(FunctionParameters.builder().putAdditionalProperty("type", JsonValue.from("object"))
                        .putAdditionalProperty("properties", JsonValue.from(Map.of("query", Map.of("type", "string")))).build())
                .build();
        return ChatCompletionCreateParams.builder().model("gpt-test")
                .addSystemMessage("You edit table configs.")
                .addUserMessage("add the warehouse name")
                .addTool(ChatCompletionFunctionTool.builder().function(search).build());
    }

    @Test
    void streamedTextParsesWithUsageAndFinishReason() {
        model.enqueue(ModelScript.builder().turn(t -> t.text("Hel", "lo ").delay(5).text("world").usage(120, 3)).build());
        StringBuilder text = new StringBuilder();
        ChatCompletionAccumulator accumulator = ChatCompletionAccumulator.create();
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(
                params().streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build()).build())) {
            stream.stream().forEach(chunk -> {
                accumulator.accumulate(chunk);
                chunk.choices().forEach(c -> c.delta().content().ifPresent(text::append));
            });
        }
        assertEquals("Hello world", text.toString());
        ChatCompletion completion = accumulator.chatCompletion();
        assertEquals(ChatCompletion.Choice.FinishReason.STOP, completion.choices().getFirst().finishReason());
        assertEquals(120, completion.usage().orElseThrow().promptTokens());
        assertEquals(3, completion.usage().orElseThrow().completionTokens());

        RecordedRequest request = model.lastRequest();
        assertTrue(request.streamed());
        assertEquals("gpt-test", request.model());
        assertEquals("You edit table configs.", request.systemPrompt());
        assertEquals(List.of("system", "user"), request.roles());
        assertEquals(List.of("search_schema"), request.toolNames());
        assertEquals("<redacted>", request.headers().get("Authorization"));
        assertEquals("completed", request.answer().outcome());
        assertEquals(3, request.answer().contentNanos().size());
    }

    @Test
    void aStreamedToolCallWithFragmentedArgumentsAccumulates() {
        model.enqueue(ModelScript.builder().turn(t -> t
                .toolCall("call_1", "search_schema", "{\"que", "ry\": \"ware", "house\"}")
                .toolCall("call_2", "search_schema", "{\"query\":\"bin\"}")).build());
        ChatCompletionAccumulator accumulator = ChatCompletionAccumulator.create();
        List<String> fragments = new ArrayList<>();
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(params().build())) {
            stream.stream().forEach(chunk -> {
                accumulator.accumulate(chunk);
                chunk.choices().forEach(c -> c.delta().toolCalls().ifPresent(calls -> calls.forEach(
                        call -> call.function().flatMap(ChatCompletionChunk.Choice.Delta.ToolCall.Function::arguments)
                                .filter(a -> !a.isEmpty()).ifPresent(fragments::add))));
            });
        }
        assertEquals(List.of("{\"que", "ry\": \"ware", "house\"}", "{\"query\":\"bin\"}"), fragments);
        ChatCompletion.Choice choice = accumulator.chatCompletion().choices().getFirst();
        assertEquals(ChatCompletion.Choice.FinishReason.TOOL_CALLS, choice.finishReason());
        List<ChatCompletionMessageFunctionToolCall> calls = choice.message().toolCalls().orElseThrow().stream()
                .map(c -> c.asFunction()).toList();
        assertEquals(2, calls.size());
        assertEquals("call_1", calls.get(0).id());
        assertEquals("search_schema", calls.get(0).function().name());
        assertEquals("{\"query\": \"warehouse\"}", calls.get(0).function().arguments());
        assertEquals("call_2", calls.get(1).id());
    }

    @Test
    void aNonStreamedCompletionCarriesTextAndToolCalls() {
        model.enqueue(ModelScript.builder()
                .turn(t -> t.toolCall("call_9", "search_schema", "{\"query\":", "\"orders\"}").usage(50, 7))
                .say("Done.")
                .build());
        ChatCompletion first = client.chat().completions().create(params().build());
        ChatCompletionMessageFunctionToolCall call = first.choices().getFirst().message().toolCalls().orElseThrow().getFirst().asFunction();
        assertEquals("{\"query\":\"orders\"}", call.function().arguments());
        assertEquals(57, first.usage().orElseThrow().totalTokens());
        ChatCompletion second = client.chat().completions().create(params().build());
        assertEquals("Done.", second.choices().getFirst().message().content().orElseThrow());
        assertFalse(model.requests().get(1).streamed());
    }

    @Test
    void httpErrorsReachTheClientAsTheirStatus() {
        model.enqueue(ModelScript.builder()
                .error(429, "Rate limit reached", Map.of("Retry-After", "1"))
                .error(500, "The server had an error")
                .build());
        RateLimitException limited = assertThrows(RateLimitException.class, () -> client.chat().completions().create(params().build()));
        assertEquals(429, limited.statusCode());
        assertEquals("1", limited.headers().values("Retry-After").getFirst());
        assertThrows(InternalServerException.class, () -> client.chat().completions().create(params().build()));
        // with no turn left the server says so, loudly
        InternalServerException none = assertThrows(InternalServerException.class, () -> client.chat().completions().create(params().build()));
        assertTrue(none.getMessage().contains("no turn left"), none.getMessage());
    }

    @Test
    void aRetryingClientGetsThroughAfterA429() {
        model.enqueue(ModelScript.builder().error(429, "slow down", Map.of("Retry-After", "0")).say("ok").build());
        OpenAIClient retrying = OpenAIOkHttpClient.builder().baseUrl(model.baseUrl()).apiKey("k").maxRetries(2).build();
        try {
            ChatCompletion completion = retrying.chat().completions().create(params().build());
            assertEquals("ok", completion.choices().getFirst().message().content().orElseThrow());
        } finally {
            retrying.close();
        }
        assertEquals(2, model.requests().size());
        assertEquals("error 429", model.requests().get(0).answer().outcome());
    }

    @Test
    void aStreamCutMidAnswerFailsTheClientAfterWhatWasSent() throws Exception {
        model.enqueue(ModelScript.builder().turn(t -> t.text("Partial ").cut()).build());
        StringBuilder text = new StringBuilder();
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(params().build())) {
            Iterator<ChatCompletionChunk> chunks = stream.stream().iterator();
            assertThrows(RuntimeException.class, () -> chunks.forEachRemaining(
                    c -> c.choices().forEach(choice -> choice.delta().content().ifPresent(text::append))));
        }
        assertEquals("Partial ", text.toString());
        assertEquals("cut", model.awaitAnswered(0, Duration.ofSeconds(5)).answer().outcome());
    }

    @Test
    void aDisconnectBeforeAnyAnswerIsAnIoFailure() {
        model.enqueue(new ScriptedTurn.Disconnect());
        assertThrows(RuntimeException.class, () -> client.chat().completions().create(params().build()));
        assertEquals("disconnected", model.lastRequest().answer().outcome());
    }

    @Test
    void aWaitingTurnHoldsTheStreamUntilReleased() throws Exception {
        model.enqueue(ModelScript.builder().turn(t -> t.text("first").waitFor("go").text(" second")).build());
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(params().build())) {
            Iterator<ChatCompletionChunk> chunks = stream.stream().iterator();
            assertEquals("first", chunks.next().choices().getFirst().delta().content().orElseThrow());
            // the model is still talking: its answer has not ended while the client holds the first delta
            assertEquals("pending", model.lastRequest().answer().outcome());
            model.release("go");
            assertEquals(" second", chunks.next().choices().getFirst().delta().content().orElseThrow());
            chunks.forEachRemaining(c -> { });
        }
        assertEquals("completed", model.awaitAnswered(0, Duration.ofSeconds(5)).answer().outcome());
    }

    @Test
    void scriptsLoadFromJson() throws Exception {
        ModelScript script = ModelScript.fromJson("""
                {"turns": [
                  {"steps": [{"toolCall": {"id": "call_1", "name": "search_schema", "arguments": ["{\\"query\\":", "\\"warehouse\\"}"]}}]},
                  {"error": {"status": 429, "message": "rate limited", "retryAfter": "2"}},
                  {"steps": [{"text": "Added "}, {"delayMs": 1}, {"text": "it."}], "usage": {"prompt": 8, "completion": 2}},
                  {"steps": [{"text": "par"}, {"cut": true}]},
                  {"disconnect": true}
                ]}""");
        assertEquals(5, script.turns().size());
        ScriptedTurn.Completion call = (ScriptedTurn.Completion) script.turns().get(0);
        assertEquals(List.of(new ScriptedTurn.Step.ToolCallStart(0, "call_1", "search_schema"),
                new ScriptedTurn.Step.ToolArguments(0, "{\"query\":"), new ScriptedTurn.Step.ToolArguments(0, "\"warehouse\"}")), call.steps());
        assertEquals(Map.of("Retry-After", "2"), ((ScriptedTurn.HttpError) script.turns().get(1)).headers());
        assertEquals(new ScriptedTurn.Usage(8, 2), ((ScriptedTurn.Completion) script.turns().get(2)).usage());
        assertTrue(script.turns().get(4) instanceof ScriptedTurn.Disconnect);
        assertThrows(java.io.IOException.class, () -> ModelScript.fromJson("{\"turns\":[{\"steps\":[{\"sing\":1}]}]}"));

        model.enqueue(script);
        ChatCompletion completion = client.chat().completions().create(params().build());
        assertEquals("search_schema", completion.choices().getFirst().message().toolCalls().orElseThrow().getFirst().asFunction().function().name());
        assertEquals(4, model.remainingTurns());
        assertTrue(Json.tree(model.lastRequest().body()).has("messages"));
    }
}
