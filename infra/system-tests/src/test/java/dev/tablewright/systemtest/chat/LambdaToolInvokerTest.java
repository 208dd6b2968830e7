package dev.tablewright.systemtest.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.invoke.LambdaToolInvoker;
import dev.tablewright.functions.tools.ApplyColumnChangeFunction;
import dev.tablewright.fakes.http.HttpRequest;
import dev.tablewright.fakes.http.HttpResponder;
import dev.tablewright.fakes.http.LoopbackHttpServer;
import dev.tablewright.json.Json;
import dev.tablewright.tool.ToolInvocation;
import dev.tablewright.tool.ToolOutcome;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.lambda.LambdaClient;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The AWS path of the tool invoker: the SDK's Lambda {@code Invoke} (the real client, request-response) against a
 * loopback stand-in of the Lambda API that runs the real tool handler with the envelope it receives.
 */
class LambdaToolInvokerTest {

    LoopbackHttpServer lambdaApi;
    final List<String> invokedPaths = new CopyOnWriteArrayList<>();
    final List<JsonNode> payloads = new CopyOnWriteArrayList<>();
    LambdaToolInvoker invoker;

    @BeforeEach
    void start() throws Exception {
        lambdaApi = LoopbackHttpServer.start(0, "lambda-api", this::invoke);
        LambdaClient client = LambdaClient.builder()
                .endpointOverride(URI.create("http://" + lambdaApi.hostAndPort()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
        invoker = new LambdaToolInvoker(client, LambdaToolInvoker.functionsFromEnvironment(Map.of(
                "TOOL_FUNCTION_APPLY_COLUMN_CHANGE", "tablewright-ApplyColumnChange-abc",
                "TOOL_FUNCTION_BROKEN_TOOL", "tablewright-Broken-abc",
                "OPENAI_MODEL", "ignored")));
    }

    @AfterEach
    void stop() {
        lambdaApi.close();
    }

    /** POST /2015-03-31/functions/{name}/invocations: the real handler for one name, a function error for the other. */
    private void invoke(HttpRequest request, HttpResponder response) throws Exception {
        invokedPaths.add(request.path());
        byte[] body = request.body();
        payloads.add(Json.parse(new String(body, java.nio.charset.StandardCharsets.UTF_8)));
        if (request.path().contains("Broken")) {
            response.send(200, Map.of("content-type", "application/json", "X-Amz-Function-Error", "Unhandled"),
                    "{\"errorMessage\":\"boom\",\"errorType\":\"java.lang.IllegalStateException\"}".getBytes());
            return;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new ApplyColumnChangeFunction(null).handleRequest(new ByteArrayInputStream(body), out, null);
        response.send(200, Map.of("content-type", "application/json"), out.toByteArray());
    }

    @Test
    void aToolRunsInItsOwnFunctionWithTheEnvelopeAndAnswersItsOutcome() throws Exception {
        ObjectNode arguments = (ObjectNode) Json.parse("""
                {"config":%s,"operation":"add","columns":[{"name":"created_at","pg_type":"timestamp without time zone"}]}"""
                .formatted(ChatTurnTest.CONFIG));
        ToolOutcome outcome = invoker.invoke(new ToolInvocation("apply_column_change", "call_1", "conv_1", "user_1",
                arguments, Map.of("database", "staging")));
        assertEquals(ToolOutcome.Status.OK, outcome.status(), String.valueOf(outcome.error()));
        assertTrue(outcome.output().path("valid").asBoolean(), outcome.output().toString());
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
    void aFunctionErrorOrAnUnknownToolIsAnErrorOutcomeNotAnException() {
        ToolOutcome broken = invoker.invoke(new ToolInvocation("broken_tool", "call_2", "conv_1", "user_1", Json.object(), Map.of()));
        assertEquals(ToolOutcome.Status.ERROR, broken.status());
        assertEquals("internal", broken.error().code());
        assertFalse(broken.error().message().contains("boom"), "the function's own error text stays in the logs");
        ToolOutcome unknown = invoker.invoke(new ToolInvocation("nope", "call_3", "conv_1", "user_1", Json.object(), Map.of()));
        assertEquals("unknown_tool", unknown.error().code());
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
