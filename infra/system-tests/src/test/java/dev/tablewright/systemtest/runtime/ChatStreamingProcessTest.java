package dev.tablewright.systemtest.runtime;

import dev.tablewright.localstack.local.ApiGatewayEvents;
import dev.tablewright.fakes.concurrent.Poll;
import dev.tablewright.fakes.runtime.Chunk;
import dev.tablewright.fakes.runtime.FunctionProcess;
import dev.tablewright.fakes.runtime.FunctionSpec;
import dev.tablewright.fakes.runtime.HttpIntegrationResponse;
import dev.tablewright.fakes.runtime.Invocation;
import dev.tablewright.fakes.runtime.InvocationResult;
import dev.tablewright.fakes.runtime.RuntimeApiEmulator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.fakes.stream.UiMessageStreamReader;
import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.fakes.model.RecordedRequest;
import dev.tablewright.fakes.model.ScriptedModelServer;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The chat function as Lambda runs it: its shaded jar unpacked as the task root, started through its
 * {@code AWS_LAMBDA_EXEC_WRAPPER} by the java21 bootstrap's command line, speaking the Runtime API's streaming
 * mode to the emulator. The handler is template.yaml's (the real {@code ChatFunction} and its turn, against the
 * scripted model); failure cases that the real turn never lets happen use a test-only handler in a side jar.
 */
class ChatStreamingProcessTest {

    private RuntimeApiEmulator emulator;
    @org.junit.jupiter.api.extension.RegisterExtension
    static final dev.tablewright.fakes.dynamodb.DynamoDbEngine ENGINE = dev.tablewright.fakes.dynamodb.DynamoDbEngine.dynamoDbLocal();

    private ScriptedModelServer model;
    private DevIssuer.Standalone identity;
    private FunctionProcess function;

    @BeforeEach
    void startEmulator() throws Exception {
        emulator = RuntimeApiEmulator.start("ChatTurnFunction");
        model = ScriptedModelServer.start();
        identity = DevIssuer.startStandalone();
    }

    @AfterEach
    void stop() {
        if (function != null) {
            function.close();
        }
        emulator.close();
        model.close();
        identity.close();
    }

    static FunctionSpec chatSpec() throws Exception {
        FunctionSpec spec = FunctionSpec.fromTemplate("ChatTurnFunction");
        assumeTrue(spec.artifactExists(), "the chat function's jar is not built (mvn package, or mvn verify from the root): " + spec.artifact());
        return spec;
    }

    static String functionUrlEvent(String body) {
        return functionUrlEvent(body, null);
    }

    static String functionUrlEvent(String body, String bearerToken) {
        Map<String, String> headers = new java.util.LinkedHashMap<>(Map.of("content-type", "application/json",
                "host", "abc.lambda-url.us-east-1.on.aws", "user-agent", "test"));
        if (bearerToken != null) {
            headers.put("authorization", "Bearer " + bearerToken);
        }
        return Json.write(ApiGatewayEvents.functionUrl("POST", "/", headers, body));
    }

    static String userMessage(String text) {
        return "{\"id\":\"conv-1\",\"trigger\":\"submit-message\",\"messages\":[{\"id\":\"m1\",\"role\":\"user\",\"parts\":["
                + "{\"type\":\"text\",\"text\":" + Json.write(text) + "}]}]}";
    }

    private InvocationResult await(Invocation invocation) throws Exception {
        return function.await(invocation, Duration.ofSeconds(60));
    }

    /** The scripted model, and the development issuer whose tokens the function verifies itself. */
    private Map<String, String> functionEnvironment() {
        Map<String, String> env = new java.util.HashMap<>(ENGINE.environment()); // the template's tables, on DynamoDB Local
        env.putAll(Map.of("OPENAI_BASE_URL", model.baseUrl(), "OPENAI_API_KEY", "sk-local-not-a-secret", "OPENAI_MODEL", "scripted-model",
                "AUTH_ISSUER", identity.issuer().issuer(), "AUTH_AUDIENCE", identity.issuer().audience(),
                "AUTH_JWKS_URL", identity.issuer().jwksUrl(), "AWS_REGION", "us-east-1",
                "AWS_ACCESS_KEY_ID", "local", "AWS_SECRET_ACCESS_KEY", "local"));
        return env;
    }

    private String signedIn(String body) {
        return functionUrlEvent(body, identity.issuer().mint(DevIssuer.DEV_USER));
    }

    /** Reads chunks as they arrive until one holds {@code needle}; returns it. */
    private Chunk awaitChunkContaining(Invocation invocation, String needle) throws InterruptedException {
        StringBuilder seen = new StringBuilder();
        while (true) {
            Chunk chunk = null;
            for (int waited = 0; chunk == null && waited < 60 && !invocation.isDone(); waited++) {
                chunk = invocation.nextChunk(Duration.ofSeconds(1));
            }
            if (chunk == null) {
                throw new AssertionError("no chunk with " + needle + " arrived; seen: " + seen + "\nfunction output:\n" + function.output());
            }
            seen.append(chunk.text().replace('\0', '0'));
            if (chunk.text().contains(needle)) {
                return chunk;
            }
        }
    }

    @Test
    void eventsArriveOneByOneWhileTheModelIsStillTalking() throws Exception {
        model.enqueue(ModelScript.builder()
                .turn(t -> t.text("The inventory ").waitFor("rest").text("has three ", "warehouses.").usage(900, 6))
                .build());
        function = FunctionProcess.start(chatSpec(), emulator, functionEnvironment());
        Invocation invocation = emulator.invoke(signedIn(userMessage("how many warehouses are there?")));

        // The client holds the first words while the model is held back before the rest of its answer.
        Chunk first = awaitChunkContaining(invocation, "\"delta\":\"The inventory \"");
        RecordedRequest modelRequest = model.lastRequest();
        assertEquals("pending", modelRequest.answer().outcome(), "the model has not finished its answer");
        assertEquals(1, modelRequest.answer().contentNanos().size(), "the model has sent only its first delta");
        assertFalse(invocation.isDone());
        model.release("rest");

        InvocationResult result = await(invocation);
        assertTrue(result.succeeded(), () -> result.errorType() + " " + result.errorBody() + "\n" + function.output());
        List<Long> modelSent = model.awaitAnswered(0, Duration.ofSeconds(30)).answer().contentNanos();
        assertTrue(first.arrivedNanos() < modelSent.get(1), "the first delta reached the client before the model sent the second");
        Chunk last = invocation.chunks().getLast();
        assertTrue(last.arrivedNanos() > modelSent.getLast());

        // the prelude: status and the UI stream headers as JSON, then exactly eight NULs
        assertTrue(result.streamed());
        assertEquals("streaming", result.headers().get("Lambda-Runtime-Function-Response-Mode"));
        assertEquals("chunked", result.headers().get("Transfer-Encoding"));
        assertEquals(HttpIntegrationResponse.CONTENT_TYPE, result.headers().get("Content-Type"));
        HttpIntegrationResponse http = HttpIntegrationResponse.parse(result.body());
        assertEquals(200, http.statusCode());
        assertEquals("v1", http.headers().get("x-vercel-ai-ui-message-stream"));
        assertEquals("text/event-stream", http.headers().get("content-type"));
        assertEquals("no-cache", http.headers().get("cache-control"));
        byte[] raw = result.body();
        for (int i = http.preludeLength() - 8; i < http.preludeLength(); i++) {
            assertEquals(0, raw[i]);
        }
        assertEquals('}', raw[http.preludeLength() - 9], "the prelude's JSON ends right before the NULs");
        assertTrue(invocation.chunks().getFirst().text().startsWith("{\"statusCode\":200"));

        UiMessageStreamReader.Parsed parsed = UiMessageStreamReader.parse(http.bodyText());
        assertTrue(parsed.done(), "ends with data: [DONE]");
        assertEquals("start", parsed.types().getFirst());
        assertEquals("finish", parsed.types().getLast());
        StringBuilder text = new StringBuilder();
        parsed.ofType("text-delta").forEach(p -> text.append(p.get("delta").asText()));
        assertEquals("The inventory has three warehouses.", text.toString());
        // one HTTP chunk per event (the prelude rides with the first), so none waited for another
        assertEquals(parsed.parts().size() + 1, invocation.chunks().size(), "one chunk per part plus [DONE]");
        assertTrue(modelRequest.systemPrompt().length() > 0);
        assertEquals("user", modelRequest.roles().getLast());
        assertFalse(function.output().contains("SLF4J"), "no logging-binding warning at start:\n" + function.output());
    }

    @Test
    void aDroppedStreamOfAStoredTurnRunsToItsEndAndTheRuntimeServesTheNextInvocation() throws Exception {
        model.enqueue(ModelScript.builder().turn(t -> {
            t.text("Listing");
            for (int i = 0; i < 100; i++) {
                t.delay(25).text(" item " + i + ",");
            }
        }).say("Still here.")
                .turn(t -> t.toolCall("call_7", "show_toast", "{\"mess", "age\":\"saved\"}"))
                .build());
        function = FunctionProcess.start(chatSpec(), emulator, functionEnvironment());
        Invocation invocation = emulator.invoke(signedIn(userMessage("list everything")));
        awaitChunkContaining(invocation, "\"delta\":\"Listing\"");
        invocation.dropStream();
        assertEquals(InvocationResult.Outcome.DROPPED, await(invocation).outcome());
        // a stored turn (conv-1, with the conversations table) outlives its client: the function reads the model's
        // stream to its end (about 2.5 s of tokens) and stores it, and only then takes the next invocation
        assertEquals("completed", model.awaitAnswered(0, Duration.ofSeconds(60)).answer().outcome());

        InvocationResult next = await(emulator.invoke(signedIn(userMessage("are you there?"))));
        assertTrue(next.succeeded(), () -> next.errorBody() + "\n" + function.output());
        assertTrue(HttpIntegrationResponse.parse(next.body()).bodyText().contains("Still here."));

        // a tool call the client runs itself: streamed as it forms, then the stream ends at its input (the shaded
        // jar's trimmed openai-java parses tool calls too)
        String withClientTool = "{\"id\":\"conv-2\",\"trigger\":\"submit-message\",\"clientTools\":[{\"name\":\"show_toast\","
                + "\"parameters\":{\"type\":\"object\",\"properties\":{\"message\":{\"type\":\"string\"}}}}],"
                + "\"messages\":[{\"id\":\"m1\",\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"text\":\"tell me when saved\"}]}]}";
        InvocationResult tool = await(emulator.invoke(signedIn(withClientTool)));
        assertTrue(tool.succeeded(), () -> tool.errorBody() + "\n" + function.output());
        UiMessageStreamReader.Parsed toolParts = UiMessageStreamReader.parse(HttpIntegrationResponse.parse(tool.body()).bodyText());
        assertTrue(toolParts.done());
        assertEquals("show_toast", toolParts.ofType("tool-input-start").getFirst().get("toolName").asText());
        JsonNode input = toolParts.ofType("tool-input-available").getFirst();
        assertEquals("call_7", input.get("toolCallId").asText());
        assertEquals("saved", input.get("input").get("message").asText());
        assertTrue(toolParts.ofType("tool-output-available").isEmpty(), "the server does not run a client tool");
        assertTrue(model.lastRequest().toolNames().contains("show_toast"));

        // a caller without a valid token gets a plain 401 through the same streamed response
        InvocationResult anonymous = await(emulator.invoke(functionUrlEvent(userMessage("hello"))));
        assertTrue(anonymous.succeeded());
        HttpIntegrationResponse refused = HttpIntegrationResponse.parse(anonymous.body());
        assertEquals(401, refused.statusCode());
        assertEquals("application/json", refused.headers().get("content-type"));
        assertTrue(Json.parse(refused.bodyText()).path("error").has("message"));
        assertEquals(3, model.requests().size(), "the model is not called for a refused request");
    }

    @Test
    void underSnapStartTheHooksRunAroundRestoreNextBeforeTheFirstInvocation() throws Exception {
        Path jar = SideJar.of("snapstart-hooks", SnapStartHooksTurn.class);
        function = FunctionProcess.start(chatSpec().withHandler(SnapStartHooksTurn.class.getName()), emulator,
                Map.of("AWS_LAMBDA_INITIALIZATION_TYPE", "snap-start"), List.of(jar));
        InvocationResult result = await(emulator.invoke(functionUrlEvent("{}")));
        assertTrue(result.succeeded(), () -> result.errorBody() + "\n" + function.output());
        assertTrue(HttpIntegrationResponse.parse(result.body()).bodyText().contains("before;after;"),
                "the hooks ran before the snapshot, then after the restore, before the turn");
        List<String> calls = emulator.calls();
        assertEquals("GET restore/next", calls.getFirst(), calls.toString());
        assertEquals("GET invocation/next", calls.get(1), calls.toString());
        String output = function.output();
        assertTrue(output.indexOf("HOOK before-snapshot") < output.indexOf("HOOK after-restore"), output);
        assertFalse(emulator.restoreError().isDone());
    }

    @Test
    void underSnapStartTheRealFunctionPrimesItsModelAndTokenPathsWithoutCallingEither() throws Exception {
        Map<String, String> env = new java.util.HashMap<>(functionEnvironment());
        env.put("AWS_LAMBDA_INITIALIZATION_TYPE", "snap-start");
        Path classLog = java.nio.file.Files.createTempFile("chat-classes", ".log");
        env.put("JAVA_TOOL_OPTIONS", "-XX:TieredStopAtLevel=1 -Xlog:class+load=info:file=" + classLog);
        function = FunctionProcess.start(chatSpec(), emulator, env);
        emulator.firstPoll().get(60, TimeUnit.SECONDS); // restored, waiting for its first event
        String loadedBeforeTheFirstEvent = java.nio.file.Files.readString(classLog);
        for (String name : List.of("com.openai.models.chat.completions.ChatCompletionChunk ", "okhttp3.internal.connection.RealCall ",
                "com.nimbusds.jose.crypto.RSASSAVerifier ", "com.nimbusds.jwt.proc.DefaultJWTProcessor ")) {
            assertTrue(loadedBeforeTheFirstEvent.contains(name), name + "was not loaded before the snapshot");
        }
        String primed = function.output();
        assertTrue(primed.contains("\"message\":\"primed before snapshot\"") && primed.contains("\"priming\":\"chat\""), primed);
        assertEquals(0, model.requests().size(), "priming streamed its completion from the loopback, not from the model");
        assertEquals(0, identity.issuer().jwksFetches(), "priming verified a throwaway key's token, fetching no key set");
        assertEquals("GET restore/next", emulator.calls().getFirst(), emulator.calls().toString());

        // the first real turn after the restore: the model and the key set are asked once each
        model.enqueue(ModelScript.builder().turn(t -> t.text("Hello after restore.")).build());
        InvocationResult result = await(emulator.invoke(signedIn(userMessage("hi")).getBytes(java.nio.charset.StandardCharsets.UTF_8),
                Duration.ofSeconds(30)));
        assertTrue(result.succeeded(), result::errorBody);
        assertTrue(result.bodyText().contains("Hello after restore."), result.bodyText());
        assertEquals(1, model.requests().size());
        assertEquals(1, identity.issuer().jwksFetches());
    }

    @Test
    void withoutSnapStartThereIsNoRestorePath() throws Exception {
        Path jar = SideJar.of("snapstart-hooks", SnapStartHooksTurn.class);
        function = FunctionProcess.start(chatSpec().withHandler(SnapStartHooksTurn.class.getName()), emulator, Map.of(), List.of(jar));
        InvocationResult result = await(emulator.invoke(functionUrlEvent("{}")));
        assertTrue(result.succeeded(), () -> result.errorBody() + "\n" + function.output());
        assertTrue(emulator.calls().stream().noneMatch(c -> c.contains("restore")), emulator.calls().toString());
        assertFalse(HttpIntegrationResponse.parse(result.body()).bodyText().contains("before;"), "no hook ran");
    }

    @Test
    void aHookThatFailsAfterTheRestoreIsReportedOnTheRestoreErrorPath() throws Exception {
        Path jar = SideJar.of("snapstart-hooks", SnapStartHooksTurn.class);
        function = FunctionProcess.start(chatSpec().withHandler(SnapStartHooksTurn.class.getName()), emulator,
                Map.of("AWS_LAMBDA_INITIALIZATION_TYPE", "snap-start", "FAIL_AFTER_RESTORE", "true"), List.of(jar));
        InvocationResult error = emulator.restoreError().get(60, TimeUnit.SECONDS);
        assertEquals("Runtime.AfterRestoreError", error.errorType());
        assertTrue(Json.parse(error.bodyText()).get("errorMessage").asText().contains("IllegalStateException"), error.bodyText());
        assertFalse(error.bodyText().contains("at dev."), "no stack trace");
        assertTrue(emulator.calls().stream().noneMatch(c -> c.equals("GET invocation/next")), "it serves nothing: " + emulator.calls());
    }

    @Test
    void anErrorAfterTheFirstByteIsReportedInTheTrailers() throws Exception {
        Path jar = SideJar.of("failing-turn", MidStreamFailingTurn.class);
        function = FunctionProcess.start(chatSpec().withHandler(MidStreamFailingTurn.class.getName()), emulator, Map.of(), List.of(jar));
        InvocationResult result = await(emulator.invoke(functionUrlEvent("{\"when\":\"mid-stream\"}")));

        assertEquals(InvocationResult.Outcome.RESPONSE, result.outcome());
        assertEquals("IllegalStateException", result.errorType());
        JsonNode error = Json.parse(result.errorBody());
        assertEquals("IllegalStateException", error.get("errorType").asText());
        assertEquals("the function failed", error.get("errorMessage").asText(), "plain message, no exception text");
        assertFalse(result.errorBody().contains("at dev."), "no stack trace");
        HttpIntegrationResponse http = HttpIntegrationResponse.parse(result.body());
        List<String> types = UiMessageStreamReader.parse(http.bodyText()).types();
        assertEquals(List.of("start", "start-step", "text-start", "text-delta"), types, "what was sent stays sent");

        // the runtime goes on serving after a failed invocation
        InvocationResult before = await(emulator.invoke(functionUrlEvent("{\"when\":\"before-first-byte\"}")));
        assertEquals(InvocationResult.Outcome.ERROR, before.outcome(), "no byte sent: the invocation fails as a whole");
        assertEquals("IllegalStateException", before.errorType());
        assertEquals("the function failed", Json.parse(before.bodyText()).get("errorMessage").asText());
        assertTrue(function.isAlive());
    }

    @Test
    void aHandlerThatCannotBeCreatedIsAnInitError() throws Exception {
        function = FunctionProcess.start(chatSpec().withHandler("dev.tablewright.functions.chat.NoSuchTurn"), emulator, Map.of());
        InvocationResult init = emulator.initError().get(60, TimeUnit.SECONDS);
        assertEquals("Runtime.InitError", init.errorType());
        assertTrue(Json.parse(init.bodyText()).get("errorMessage").asText().contains("NoSuchTurn"));
        Invocation queued = emulator.invoke(signedIn(userMessage("hi")));
        assertEquals(InvocationResult.Outcome.INIT_ERROR, await(queued).outcome());
        Poll.until("the runtime exiting after an init error", Duration.ofSeconds(5), () -> !function.isAlive());
    }
}
