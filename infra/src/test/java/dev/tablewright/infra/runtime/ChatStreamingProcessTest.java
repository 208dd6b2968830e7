package dev.tablewright.infra.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.functions.chat.stream.UiMessageStreamReader;
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
 * mode to the emulator. The handler comes from template.yaml; failure cases use a test-only handler in a side jar.
 */
class ChatStreamingProcessTest {

    private RuntimeApiEmulator emulator;
    private FunctionProcess function;

    @BeforeEach
    void startEmulator() throws Exception {
        emulator = RuntimeApiEmulator.start("ChatTurnFunction");
    }

    @AfterEach
    void stop() {
        if (function != null) {
            function.close();
        }
        emulator.close();
    }

    static FunctionSpec chatSpec() throws Exception {
        FunctionSpec spec = FunctionSpec.fromTemplate("ChatTurnFunction");
        assumeTrue(spec.artifactExists(), "the chat function's jar is not built (mvn package, or mvn verify from the root): " + spec.artifact());
        return spec;
    }

    static String functionUrlEvent(String body) {
        ObjectNode event = Json.object().put("version", "2.0").put("routeKey", "$default").put("rawPath", "/")
                .put("rawQueryString", "").put("body", body).put("isBase64Encoded", false);
        event.putObject("headers").put("content-type", "application/json").put("host", "abc.lambda-url.us-east-1.on.aws");
        ObjectNode context = event.putObject("requestContext").put("requestId", "req-1").put("apiId", "abc")
                .put("domainName", "abc.lambda-url.us-east-1.on.aws").put("stage", "$default");
        context.putObject("http").put("method", "POST").put("path", "/").put("protocol", "HTTP/1.1")
                .put("sourceIp", "127.0.0.1").put("userAgent", "test");
        return Json.write(event);
    }

    static String userMessage(String text) {
        return "{\"id\":\"conv-1\",\"trigger\":\"submit-message\",\"messages\":[{\"id\":\"m1\",\"role\":\"user\",\"parts\":["
                + "{\"type\":\"text\",\"text\":" + Json.write(text) + "}]}]}";
    }

    private InvocationResult await(Invocation invocation) throws Exception {
        try {
            return invocation.await(Duration.ofSeconds(60));
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("no answer; function output:\n" + function.output(), e);
        }
    }

    @Test
    void streamsTheHttpIntegrationResponseWithItsPreludeAndEndsWithDone() throws Exception {
        function = FunctionProcess.start(chatSpec(), emulator, Map.of());
        Invocation invocation = emulator.invoke(functionUrlEvent(userMessage("show me the inventory")));
        InvocationResult result = await(invocation);

        assertTrue(result.succeeded(), () -> result.errorType() + " " + result.errorBody() + "\n" + function.output());
        assertTrue(result.streamed());
        assertEquals("streaming", result.headers().get("Lambda-Runtime-Function-Response-Mode"));
        assertEquals("chunked", result.headers().get("Transfer-Encoding"));
        assertEquals(HttpIntegrationResponse.CONTENT_TYPE, result.headers().get("Content-Type"));
        HttpIntegrationResponse http = HttpIntegrationResponse.parse(result.body());
        assertEquals(200, http.statusCode());
        assertEquals("v1", http.headers().get("x-vercel-ai-ui-message-stream"));
        assertEquals("text/event-stream", http.headers().get("content-type"));
        assertEquals("no-cache", http.headers().get("cache-control"));
        // the prelude is JSON followed by exactly eight NULs
        byte[] raw = result.body();
        for (int i = http.preludeLength() - 8; i < http.preludeLength(); i++) {
            assertEquals(0, raw[i]);
        }
        assertTrue(raw[http.preludeLength() - 9] == '}', "the prelude's JSON ends right before the NULs");

        UiMessageStreamReader.Parsed parsed = UiMessageStreamReader.parse(http.bodyText());
        assertTrue(parsed.done(), "ends with data: [DONE]");
        assertEquals("start", parsed.types().getFirst());
        assertEquals("finish", parsed.types().getLast());
        // one HTTP chunk per event: the first chunk carries the prelude and the first event
        List<Chunk> chunks = invocation.chunks();
        assertEquals(parsed.parts().size() + 1, chunks.size(), "one chunk per part plus [DONE]");
        assertTrue(chunks.getFirst().text().endsWith("\n\n"));
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
        assertEquals("the chat turn failed", error.get("errorMessage").asText(), "plain message, no exception text");
        assertFalse(result.errorBody().contains("at dev."), "no stack trace");
        HttpIntegrationResponse http = HttpIntegrationResponse.parse(result.body());
        List<String> types = UiMessageStreamReader.parse(http.bodyText()).types();
        assertEquals(List.of("start", "start-step", "text-start", "text-delta"), types, "what was sent stays sent");

        // the runtime goes on serving after a failed invocation
        InvocationResult before = await(emulator.invoke(functionUrlEvent("{\"when\":\"before-first-byte\"}")));
        assertEquals(InvocationResult.Outcome.ERROR, before.outcome(), "no byte sent: the invocation fails as a whole");
        assertEquals("IllegalStateException", before.errorType());
        assertEquals("the chat turn failed", Json.parse(before.bodyText()).get("errorMessage").asText());
        assertTrue(function.isAlive());
    }

    @Test
    void aHandlerThatCannotBeCreatedIsAnInitError() throws Exception {
        function = FunctionProcess.start(chatSpec().withHandler("dev.tablewright.functions.chat.NoSuchTurn"), emulator, Map.of());
        InvocationResult init = emulator.initError().get(60, TimeUnit.SECONDS);
        assertEquals("Runtime.InitError", init.errorType());
        assertTrue(Json.parse(init.bodyText()).get("errorMessage").asText().contains("NoSuchTurn"));
        Invocation queued = emulator.invoke(functionUrlEvent(userMessage("hi")));
        assertEquals(InvocationResult.Outcome.INIT_ERROR, await(queued).outcome());
        for (int i = 0; i < 100 && function.isAlive(); i++) {
            Thread.sleep(50);
        }
        assertFalse(function.isAlive(), "the runtime exits after an init error");
    }
}
