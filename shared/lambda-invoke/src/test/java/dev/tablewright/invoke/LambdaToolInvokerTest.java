package dev.tablewright.invoke;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.tablewright.json.Json;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.toolcontract.ToolOutcomeJson;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.lambda.LambdaClient;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Lambda transport of the invoker contract, through the real AWS SDK client against a loopback endpoint that
 * answers as Lambda's {@code Invoke} API does: the payload the function gets, its answer read as a tool outcome, a
 * function error and a refused call kept from the model.
 */
class LambdaToolInvokerTest {

    private HttpServer lambda;
    private final List<String> paths = new CopyOnWriteArrayList<>();
    private final List<JsonNode> payloads = new CopyOnWriteArrayList<>();
    private volatile int status = 200;
    private volatile String functionError;
    private volatile String answer = Json.write(ToolOutcomeJson.write(ToolOutcome.ok(Json.object().put("added", 1))));
    private LambdaToolInvoker invoker;

    @BeforeEach
    void start() throws Exception {
        lambda = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        lambda.createContext("/", exchange -> {
            paths.add(exchange.getRequestURI().getPath());
            payloads.add(Json.parse(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
            if (functionError != null) {
                exchange.getResponseHeaders().add("X-Amz-Function-Error", functionError);
            }
            byte[] body = answer.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("content-type", "application/json");
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        lambda.start();
        LambdaClient client = LambdaClient.builder().httpClient(UrlConnectionHttpClient.create()).region(Region.EU_WEST_1)
                .endpointOverride(URI.create("http://127.0.0.1:" + lambda.getAddress().getPort()))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDLOCAL", "local-secret")))
                .overrideConfiguration(c -> c.retryStrategy(s -> s.maxAttempts(1)))
                .build();
        invoker = new LambdaToolInvoker(client, LambdaToolInvoker.functionsFromEnvironment(Map.of(
                "TOOL_FUNCTION_APPLY_COLUMN_CHANGE", "stack-ApplyColumnChange", "TOOL_FUNCTION_EMPTY", " ", "OTHER", "x")));
    }

    @AfterEach
    void stop() {
        lambda.stop(0);
    }

    private static ToolInvocation call() {
        return new ToolInvocation("apply_column_change", "call_1", "conv_1", "user_1",
                Json.objectLiteral("{\"operation\":\"add\"}"), Map.of("database", "sales"), "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
    }

    @Test
    void theToolsFunctionsComeFromTheEnvironmentByToolName() {
        assertEquals(Map.of("apply_column_change", "stack-ApplyColumnChange"), LambdaToolInvoker.functionsFromEnvironment(Map.of(
                "TOOL_FUNCTION_APPLY_COLUMN_CHANGE", "stack-ApplyColumnChange", "TOOL_FUNCTION_EMPTY", " ", "OTHER", "x")));
        assertTrue(invoker.knows("apply_column_change"));
        assertFalse(invoker.knows("empty"));
    }

    @Test
    void theEnvelopeGoesToTheToolsFunctionAndItsAnswerIsTheOutcome() {
        ToolOutcome outcome = invoker.invoke(call());
        assertEquals(1, assertInstanceOf(ToolOutcome.Ok.class, outcome).output().path("added").asInt());
        assertEquals(List.of("/2015-03-31/functions/stack-ApplyColumnChange/invocations"), paths);
        JsonNode envelope = payloads.getFirst();
        assertEquals("apply_column_change", envelope.path("tool").asText());
        assertEquals("call_1", envelope.path("toolCallId").asText());
        assertEquals("add", envelope.path("arguments").path("operation").asText());
        assertEquals("sales", envelope.path("sessionValues").path("database").asText());
        assertTrue(envelope.path("traceparent").asText().startsWith("00-0af7651916cd43dd8448eb211c80319c-"));
    }

    @Test
    void aFunctionErrorIsAnInternalFailureWithoutTheFunctionsText() {
        functionError = "Unhandled";
        answer = "{\"errorMessage\":\"secret stack trace\",\"errorType\":\"java.lang.IllegalStateException\"}";
        ToolOutcome.Failed failed = assertInstanceOf(ToolOutcome.Failed.class, invoker.invoke(call()));
        assertEquals(ErrorCode.INTERNAL, failed.error().code());
        assertFalse(failed.error().message().contains("secret"), failed.error().message());
    }

    @Test
    void aRefusedInvokeIsUnavailableAndAnUnknownToolIsSaidSo() {
        status = 429;
        answer = "{\"message\":\"Rate exceeded\",\"Type\":\"User\"}";
        ToolOutcome.Failed throttled = assertInstanceOf(ToolOutcome.Failed.class, invoker.invoke(call()));
        assertEquals(ErrorCode.UNAVAILABLE, throttled.error().code());

        ToolOutcome.Failed unknown = assertInstanceOf(ToolOutcome.Failed.class, invoker.invoke(new ToolInvocation(
                "drop_everything", "call_2", "conv_1", "user_1", Json.object(), Map.of(), null)));
        assertEquals(ErrorCode.UNKNOWN_TOOL, unknown.error().code());
        assertEquals(1, paths.size(), "the unknown tool was never sent");
    }

    @Test
    void anAnswerThatIsNoJsonIsAFailureOfTheFunction() {
        answer = "not json";
        assertEquals(ErrorCode.INTERNAL, assertInstanceOf(ToolOutcome.Failed.class, invoker.invoke(call())).error().code());
    }
}
