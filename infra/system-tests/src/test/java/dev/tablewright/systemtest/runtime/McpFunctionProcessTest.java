package dev.tablewright.systemtest.runtime;

import dev.tablewright.localstack.local.ApiGatewayEvents;
import dev.tablewright.fakes.dynamodb.DynamoDbEngine;
import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.fakes.runtime.FunctionProcess;
import dev.tablewright.fakes.runtime.FunctionSpec;
import dev.tablewright.fakes.runtime.HttpIntegrationResponse;
import dev.tablewright.fakes.runtime.InvocationResult;
import dev.tablewright.fakes.runtime.RuntimeApiEmulator;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The MCP function as Lambda runs it: its own shaded jar (the streaming runtime and its wrapper from
 * shared/lambda-streaming, none of the chat's classes) unpacked as the task root and started through its
 * {@code AWS_LAMBDA_EXEC_WRAPPER}, answering MCP requests through the Runtime API's streaming mode.
 */
class McpFunctionProcessTest {

    @RegisterExtension
    static final DynamoDbEngine ENGINE = DynamoDbEngine.dynamoDbLocal();

    static FunctionSpec mcpSpec() throws Exception {
        FunctionSpec spec = FunctionSpec.fromTemplate("McpFunction");
        assumeTrue(spec.artifactExists(), "the MCP function's jar is not built (mvn package, or mvn verify from the root): " + spec.artifact());
        return spec;
    }

    static String initializeEvent(String bearerToken) {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"process-test\",\"version\":\"1\"}}}";
        return event(bearerToken, body, Map.of());
    }

    /** A 2026-07-28 server/discover: no session, its _meta and the headers mirroring the body. */
    static String discoverEvent(String bearerToken) {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
        return event(bearerToken, body, Map.of("mcp-protocol-version", "2026-07-28", "mcp-method", "server/discover"));
    }

    private static String event(String bearerToken, String body, Map<String, String> extraHeaders) {
        Map<String, String> headers = new java.util.LinkedHashMap<>(Map.of("content-type", "application/json",
                "host", "abc.lambda-url.us-east-1.on.aws", "accept", "application/json, text/event-stream"));
        headers.putAll(extraHeaders);
        if (bearerToken != null) {
            headers.put("authorization", "Bearer " + bearerToken);
        }
        return Json.write(ApiGatewayEvents.functionUrl("POST", "/mcp", headers, body));
    }

    private static InvocationResult await(RuntimeApiEmulator emulator, FunctionProcess function, String event) throws Exception {
        return function.await(emulator.invoke(event), Duration.ofSeconds(60));
    }

    @Test
    void itsOwnJarCarriesTheStreamingRuntimeAndItsWrapperButNothingOfTheChat() throws Exception {
        try (ZipFile jar = new ZipFile(mcpSpec().artifact().toFile())) {
            assertNotNull(jar.getEntry("streaming-wrapper"));
            assertNotNull(jar.getEntry("dev/tablewright/lambda/streaming/StreamingRuntime.class"));
            List<String> chat = Collections.list(jar.entries()).stream().map(ZipEntry::getName)
                    .filter(name -> name.startsWith("dev/tablewright/functions/chat/")).toList();
            assertEquals(List.of(), chat);
        }
    }

    @Test
    void answersInitializeAndA2026DiscoverThroughTheStreamingRuntimeAndRefusesACallerWithoutAToken() throws Exception {
        try (RuntimeApiEmulator emulator = RuntimeApiEmulator.start("McpFunction");
             DevIssuer.Standalone identity = DevIssuer.startStandalone()) {
            Map<String, String> env = new HashMap<>(ENGINE.environment()); // the template's tables, on DynamoDB Local
            env.putAll(Map.of("AUTH_ISSUER", identity.issuer().issuer(), "AUTH_AUDIENCE", identity.issuer().audience(),
                    "AUTH_JWKS_URL", identity.issuer().jwksUrl(), "AWS_REGION", "us-east-1",
                    "AWS_ACCESS_KEY_ID", "local", "AWS_SECRET_ACCESS_KEY", "local"));
            try (FunctionProcess function = FunctionProcess.start(mcpSpec(), emulator, env)) {
                InvocationResult initialized = await(emulator, function, initializeEvent(identity.issuer().mint(DevIssuer.DEV_USER)));
                assertTrue(initialized.succeeded(), () -> initialized.errorBody() + "\n" + function.output());
                assertTrue(initialized.streamed(), "answered in the Runtime API's streaming mode");
                HttpIntegrationResponse http = HttpIntegrationResponse.parse(initialized.body());
                assertEquals(200, http.statusCode(), http.bodyText());
                assertTrue(http.headers().keySet().stream().anyMatch(h -> h.equalsIgnoreCase("mcp-session-id")), http.headers().toString());
                assertEquals("2025-11-25", Json.parse(http.bodyText()).path("result").path("protocolVersion").asText(), http.bodyText());

                InvocationResult discovered = await(emulator, function, discoverEvent(identity.issuer().mint(DevIssuer.DEV_USER)));
                assertTrue(discovered.succeeded(), () -> discovered.errorBody() + "\n" + function.output());
                HttpIntegrationResponse modern = HttpIntegrationResponse.parse(discovered.body());
                assertEquals(200, modern.statusCode(), modern.bodyText());
                assertTrue(modern.headers().keySet().stream().noneMatch(h -> h.equalsIgnoreCase("mcp-session-id")), "2026-07-28: no session");
                assertTrue(Json.parse(modern.bodyText()).path("result").path("supportedVersions").toString().contains("2026-07-28"), modern.bodyText());

                InvocationResult anonymous = await(emulator, function, initializeEvent(null));
                assertTrue(anonymous.succeeded(), () -> anonymous.errorBody() + "\n" + function.output());
                assertEquals(401, HttpIntegrationResponse.parse(anonymous.body()).statusCode());
            }
        }
    }
}
