package dev.tablewright.systemtest.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.functions.tools.ApplyColumnChangeFunction;
import dev.tablewright.invoke.LambdaToolInvoker;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.lambda.LambdaClient;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The AWS path of the tool invoker: the SDK's Lambda {@code Invoke} (the real client, request-response) against a
 * loopback stand-in of the Lambda API that runs the real tool handler with the envelope it receives. What every
 * invoker answers (the gate, the failures) is {@link ToolInvokerContractTest}'s; this is what only Lambda has.
 */
class LambdaToolInvokerTest {

    LoopbackLambdaApi lambdaApi;
    List<String> invokedPaths;
    List<JsonNode> payloads;
    LambdaToolInvoker invoker;

    @BeforeEach
    void start() throws Exception {
        lambdaApi = LoopbackLambdaApi.start(Map.of("tablewright-ApplyColumnChange-abc", new ApplyColumnChangeFunction(null)));
        invokedPaths = lambdaApi.invokedPaths;
        payloads = lambdaApi.payloads;
        invoker = new LambdaToolInvoker(lambdaApi.client(), LambdaToolInvoker.functionsFromEnvironment(Map.of(
                "TOOL_FUNCTION_APPLY_COLUMN_CHANGE", "tablewright-ApplyColumnChange-abc",
                "OPENAI_MODEL", "ignored")));
    }

    @AfterEach
    void stop() {
        lambdaApi.close();
    }

    @Test
    void aToolRunsInItsOwnFunctionWithTheEnvelopeAndAnswersItsOutcome() throws Exception {
        ObjectNode arguments = (ObjectNode) Json.parse("""
                {"config":%s,"operation":"add","columns":[{"name":"created_at","pg_type":"timestamp without time zone"}]}"""
                .formatted(ChatTurnTest.CONFIG));
        ToolOutcome outcome = invoker.invoke(new ToolInvocation("apply_column_change", "call_1", "conv_1", "user_1",
                arguments, Map.of("database", "staging")));
        assertEquals(ToolOutcome.Status.OK, outcome.status(), String.valueOf(outcome));
        assertTrue(assertInstanceOf(ToolOutcome.Ok.class, outcome).output().path("valid").asBoolean(), assertInstanceOf(ToolOutcome.Ok.class, outcome).output().toString());
        assertEquals(List.of("/2015-03-31/functions/tablewright-ApplyColumnChange-abc/invocations"), invokedPaths);
        JsonNode envelope = payloads.get(0);
        assertEquals("apply_column_change", envelope.path("tool").asText());
        assertEquals("call_1", envelope.path("toolCallId").asText());
        assertEquals("conv_1", envelope.path("conversationId").asText());
        assertEquals("user_1", envelope.path("userId").asText());
        assertEquals("staging", envelope.path("sessionValues").path("database").asText());
        assertTrue(invoker.knows("apply_column_change"));
        assertFalse(invoker.knows("preview_table_config"), "only the functions the template names");
    }

    @Test
    void aCallThatDoesNotGetThroughIsUnavailableNotAnException() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        LambdaToolInvoker refused = new LambdaToolInvoker(LoopbackLambdaApi.clientFor(URI.create("http://127.0.0.1:" + closedPort))
                .build(), Map.of("apply_column_change", "tablewright-ApplyColumnChange-abc"));
        ToolOutcome outcome = refused.invoke(new ToolInvocation("apply_column_change", "call_2", "conv_1", "user_1", Json.object(), Map.of()));
        assertEquals(ErrorCode.UNAVAILABLE, assertInstanceOf(ToolOutcome.Failed.class, outcome).error().code());
        assertTrue(assertInstanceOf(ToolOutcome.Failed.class, outcome).error().message().contains("try again"), assertInstanceOf(ToolOutcome.Failed.class, outcome).error().message());
    }

    @Test
    void aCallWithNoAnswerInTimeIsUnavailable() throws Exception {
        CountDownLatch released = new CountDownLatch(1);
        try (LoopbackLambdaApi silent = LoopbackLambdaApi.start(Map.of("tablewright-Silent-abc", (in, out, context) -> {
            try {
                released.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }))) {
            // the chat's client waits as long as its HTTP client lets it; here the call gives up at once
            LambdaClient client = LoopbackLambdaApi.clientFor(silent.endpoint())
                    .overrideConfiguration(c -> c.apiCallTimeout(Duration.ofMillis(300))).build();
            ToolOutcome outcome = new LambdaToolInvoker(client, Map.of("silent_tool", "tablewright-Silent-abc"))
                    .invoke(new ToolInvocation("silent_tool", "call_3", "conv_1", "user_1", Json.object(), Map.of()));
            assertEquals(ErrorCode.UNAVAILABLE, assertInstanceOf(ToolOutcome.Failed.class, outcome).error().code());
        } finally {
            released.countDown();
        }
    }

    @Test
    void theTurnsTraceGoesInTheEnvelopeAndTheToolFunctionLogsItsTraceId() throws Exception {
        java.io.ByteArrayOutputStream logs = new java.io.ByteArrayOutputStream();
        dev.tablewright.logging.StructuredLog.redirect(new java.io.PrintStream(logs, true, java.nio.charset.StandardCharsets.UTF_8));
        dev.tablewright.logging.TraceContext turn = dev.tablewright.logging.TraceContext.generate();
        try {
            dev.tablewright.logging.TraceContext.begin(turn);
            invoker.invoke(new ToolInvocation("apply_column_change", "call_4", "conv_1", "user_1", Json.object(), Map.of()));
        } finally {
            dev.tablewright.logging.StructuredLog.redirect(System.out);
            dev.tablewright.logging.StructuredLog.clear();
        }
        var sent = dev.tablewright.logging.TraceContext.parse(payloads.get(0).path("traceparent").asText()).orElseThrow();
        assertEquals(turn.traceId(), sent.traceId());
        assertFalse(turn.spanId().equals(sent.spanId()), "a child of the turn's context");
        List<JsonNode> toolLines = new java.util.ArrayList<>();
        for (String line : logs.toString(java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
            if (line.contains("\"toolName\"")) {
                toolLines.add(Json.parse(line));
            }
        }
        assertFalse(toolLines.isEmpty(), logs.toString());
        for (JsonNode line : toolLines) {
            assertEquals(turn.traceId(), line.path("traceId").asText(), "the tool function's line, on the Lambda API's thread: " + line);
        }
    }
}
