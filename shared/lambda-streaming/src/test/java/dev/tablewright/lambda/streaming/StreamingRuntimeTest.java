package dev.tablewright.lambda.streaming;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.fakes.runtime.HttpIntegrationResponse;
import dev.tablewright.fakes.runtime.Invocation;
import dev.tablewright.fakes.runtime.InvocationResult;
import dev.tablewright.fakes.runtime.RuntimeApiEmulator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The streaming runtime in-process against the Runtime API emulator (fast; ChatStreamingProcessTest runs it as
 * Lambda does). Same package as the runtime to reach its package-private entry points.
 */
class StreamingRuntimeTest {

    private RuntimeApiEmulator emulator;
    private RuntimeApiClient api;

    @BeforeEach
    void start() throws Exception {
        emulator = RuntimeApiEmulator.start("ChatTurnFunction");
        api = new RuntimeApiClient(emulator.address());
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    private InvocationResult serveOne(StreamingHandler handler, String eventBody) throws Exception {
        Invocation invocation = emulator.invoke(eventBody.getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(42));
        new StreamingRuntime(api, handler).serve(api.next());
        return invocation.await(Duration.ofSeconds(10));
    }

    @Test
    void passesTheEventAndTheDeadlineAndMovesCookiesOutOfTheHeaders() throws Exception {
        AtomicReference<LambdaInvocation> seen = new AtomicReference<>();
        AtomicReference<JsonNode> event = new AtomicReference<>();
        long before = System.currentTimeMillis();
        InvocationResult result = serveOne(new StreamingHandler() {
            @Override
            public void handle(JsonNode e, HttpResponseStream response) {
                throw new AssertionError("the runtime calls the three-argument entry point");
            }

            @Override
            public void handle(JsonNode e, HttpResponseStream response, LambdaInvocation invocation) {
                event.set(e);
                seen.set(invocation);
                Map<String, String> headers = new LinkedHashMap<>();
                headers.put("content-type", "text/plain");
                headers.put("Set-Cookie", "session=abc; HttpOnly");
                response.start(201, headers);
                response.write("hello".getBytes(StandardCharsets.UTF_8));
                // no flush, no close: the runtime ends the response itself
            }
        }, "{\"body\":\"x\"}");

        assertEquals("x", event.get().get("body").asText());
        assertNotNull(seen.get().requestId());
        long deadline = seen.get().deadline().toEpochMilli();
        assertTrue(deadline >= before + 42_000 && deadline <= System.currentTimeMillis() + 42_000);
        assertTrue(seen.get().invokedFunctionArn().endsWith(":function:ChatTurnFunction"));
        assertTrue(result.succeeded());
        HttpIntegrationResponse http = HttpIntegrationResponse.parse(result.body());
        assertEquals(201, http.statusCode());
        assertEquals(Map.of("content-type", "text/plain"), http.headers());
        assertEquals(List.of("session=abc; HttpOnly"), http.cookies());
        assertEquals("hello", http.bodyText());
    }

    @Test
    void aHandlerThatWritesNothingAnswersAnEmpty200() throws Exception {
        InvocationResult result = serveOne((e, response) -> { }, "{}");
        assertTrue(result.succeeded());
        HttpIntegrationResponse http = HttpIntegrationResponse.parse(result.body());
        assertEquals(200, http.statusCode());
        assertEquals(0, http.body().length);
    }

    @Test
    void aStartedButUnflushedResponseStillFailsAsAWhole() throws Exception {
        InvocationResult result = serveOne((e, response) -> {
            response.start(200, Map.of());
            response.write("never sent".getBytes(StandardCharsets.UTF_8));
            throw new IllegalArgumentException("secret detail that must not leave the function");
        }, "{}");
        assertEquals(InvocationResult.Outcome.ERROR, result.outcome(), "no byte was sent: /error, not trailers");
        assertEquals("IllegalArgumentException", result.errorType());
        assertTrue(!result.bodyText().contains("secret detail"));
    }

    @Test
    void anEventThatIsNotJsonFailsTheInvocationAndTheRuntimeGoesOn() throws Exception {
        InvocationResult bad = serveOne((e, response) -> { }, "not json");
        assertEquals(InvocationResult.Outcome.ERROR, bad.outcome());
        InvocationResult good = serveOne((e, response) -> response.sendJson(200, "{}".getBytes(StandardCharsets.UTF_8)), "{}");
        assertTrue(good.succeeded());
        assertEquals("{}", HttpIntegrationResponse.parse(good.body()).bodyText());
    }
}
