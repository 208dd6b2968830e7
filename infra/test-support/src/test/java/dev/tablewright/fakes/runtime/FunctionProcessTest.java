package dev.tablewright.fakes.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The harness end to end with the real Runtime Interface Client from Maven Central: a separate JVM, the
 * documented Runtime API, one process serving several invocations, and a handler failure as an /error post.
 */
class FunctionProcessTest {

    @AutoClose
    private static RuntimeApiEmulator emulator;
    @AutoClose
    private static FunctionProcess function;

    @BeforeAll
    static void start() throws Exception {
        emulator = RuntimeApiEmulator.start("UppercaseFunction");
        FunctionSpec spec = new FunctionSpec("UppercaseFunction", UppercaseHandler.class.getName() + "::handleRequest",
                "java21", 256, 10, Map.of("STAGE", "test"), "test-support", Path.of("target/test-classes"));
        function = FunctionProcess.start(spec, emulator, Map.of());
    }

    @Test
    void answersInvocationsThroughTheRuntimeInterfaceClient() throws Exception {
        Invocation first = emulator.invoke("{\"name\":\"warehouse\"}");
        InvocationResult result = awaitOrExplain(first);
        assertTrue(result.succeeded(), result::errorBody);
        assertTrue(!result.streamed());
        JsonNode answer = Json.parse(result.bodyText());
        assertEquals("WAREHOUSE", answer.get("echo").get("NAME").asText());
        assertEquals(first.requestId(), answer.get("requestId").asText());
        assertEquals("UppercaseFunction", answer.get("function").asText());
        assertTrue(answer.get("remainingMs").asLong() > 0 && answer.get("remainingMs").asLong() <= 30_000);

        // the same process takes the next one (a warm invocation)
        InvocationResult second = awaitOrExplain(emulator.invoke("{\"name\":\"bin\"}"));
        assertEquals("BIN", Json.parse(second.bodyText()).get("echo").get("NAME").asText());
        assertTrue(emulator.polls() >= 2);
    }

    @Test
    void aThrowingHandlerIsReportedAsAnInvocationError() throws Exception {
        InvocationResult result = awaitOrExplain(emulator.invoke("{\"do\":\"fail\"}"));
        assertEquals(InvocationResult.Outcome.ERROR, result.outcome());
        JsonNode error = Json.parse(result.bodyText());
        assertEquals("asked to fail", error.get("errorMessage").asText());
        assertEquals("java.lang.IllegalArgumentException", error.get("errorType").asText());
        assertTrue(function.isAlive(), "the runtime keeps serving after a handler error");
    }

    private static InvocationResult awaitOrExplain(Invocation invocation) throws Exception {
        return function.await(invocation, Duration.ofSeconds(30));
    }
}
