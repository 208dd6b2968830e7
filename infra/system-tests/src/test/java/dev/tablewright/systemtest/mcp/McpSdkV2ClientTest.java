package dev.tablewright.systemtest.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.tablewright.toolassembly.ToolAssembly;
import dev.tablewright.http.stream.InMemoryResponseStream;
import dev.tablewright.dynamodb.DynamoDbInputRequestStore;
import dev.tablewright.dynamodb.DynamoDbSavedValuesStore;
import dev.tablewright.fakes.dynamodb.DynamoDbLocalLauncher;
import dev.tablewright.fakes.dynamodb.TemplateTables;
import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.fakes.node.NodeProject;
import dev.tablewright.fakes.template.SamTemplate;
import dev.tablewright.fakes.tools.InProcessToolInvoker;
import dev.tablewright.functions.mcp.McpFunction;
import dev.tablewright.json.Json;
import dev.tablewright.localstack.local.LocalDeployment;
import dev.tablewright.mcp.McpEndpoint;
import dev.tablewright.mcp.McpHttpRequest;
import dev.tablewright.userinput.InputRequestService;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The official MCP TypeScript SDK v2 client ({@code @modelcontextprotocol/client} 2.x, infra/mcp-client,
 * mcp-client-2026.mjs) on the 2026-07-28 revision: pinned to it and in auto mode against the local stack with two
 * data sources (discover, list, calls, a multi round-trip question answered through the client's elicitation handler,
 * a declined one, accept_preview confirmed), and URL mode against an endpoint whose tool asks for a secret (the page
 * stand-in completes the input request as the page's submit does). The v1 client on the 2025 path is McpClientTest's.
 * Fails (never skips) without Node.
 */
class McpSdkV2ClientTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    @AutoClose
    private static LocalDeployment stack;
    private static String token;

    @BeforeAll
    static void start() throws Exception {
        stack = McpStack.start();
        token = stack.issuer().mint(DevIssuer.DEV_USER);
    }

    private static JsonNode run(String scenario, String mcpUrl, String bearer, String... env) throws Exception {
        NodeProject clients = McpStack.CLIENTS;
        Path dir = clients.directory();
        List<String> command = new ArrayList<>(List.of("env", "MCP_URL=" + mcpUrl, "MCP_TOKEN=" + bearer));
        command.addAll(List.of(env));
        command.addAll(List.of("node", dir.resolve("mcp-client-2026.mjs").toString(), scenario));
        NodeProject.Result r = clients.run(180, command);
        if (r.exit() != 0) {
            throw new AssertionError("the v2 client failed in scenario " + scenario + " (exit " + r.exit() + "):\n" + r.stderr() + "\n" + r.stdout());
        }
        return Json.parse(r.stdout());
    }

    @Test
    void pinnedTo2026TheClientDiscoversListsAndAnswersQuestionsThroughItsHandler() throws Exception {
        JsonNode out = run("pinned", stack.mcpUrl(), token);
        assertEquals("modern", out.path("era").asText(), out.toString());
        assertEquals("[\"2026-07-28\",\"2025-11-25\",\"2025-06-18\"]", out.path("discover").path("supportedVersions").toString());
        assertEquals("tablewright", out.path("serverVersion").path("name").asText(), out.toString());
        assertEquals(12, out.path("tools").size(), out.path("tools").toString());

        assertFalse(out.path("named").path("isError").asBoolean(), out.path("named").toString());
        assertTrue(out.path("named").path("text").asText().contains("\"database\":\"production\""), out.path("named").toString());

        assertEquals(1, out.path("askedCount").asInt(), "one question, answered through the handler: " + out.path("questions"));
        JsonNode question = out.path("questions").path(0);
        assertEquals("[\"production\",\"staging\"]", question.path("requestedSchema").path("properties").path("database").path("enum").toString());
        JsonNode asked = out.path("asked");
        assertFalse(asked.path("isError").asBoolean(), asked.toString());
        assertTrue(asked.path("text").asText().contains("\"database\":\"staging\""), "staging's tables: " + asked);
        assertEquals("staging", asked.path("meta").path("dev.tablewright/database").asText(), asked.toString());

        assertTrue(out.path("declined").path("isError").asBoolean(), out.path("declined").toString());
        assertTrue(out.path("declined").path("text").asText().contains("declined"), out.path("declined").toString());
        JsonNode silent = out.path("withoutCapability");
        assertTrue(silent.path("isError").asBoolean(), silent.toString());
        assertTrue(silent.path("text").asText().contains("staging"), "what the user must provide: " + silent);

        assertTrue(out.path("notConfirmed").path("isError").asBoolean(), out.path("notConfirmed").toString());
        assertTrue(out.path("notConfirmed").path("text").asText().contains("still pending"), out.path("notConfirmed").toString());
        JsonNode accepted = out.path("accepted");
        assertFalse(accepted.path("isError").asBoolean(), accepted.toString());
        String configId = accepted.path("structuredContent").path("configId").asText();
        assertEquals(1, accepted.path("structuredContent").path("version").asInt(), accepted.toString());
        HttpResponse<String> saved = HTTP.send(HttpRequest.newBuilder(URI.create(stack.url() + "/configs/" + configId))
                .header("authorization", "Bearer " + token).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, saved.statusCode(), saved.body());
        assertTrue(saved.body().contains(out.path("name").asText()), saved.body());
    }

    @Test
    void inAutoModeTheDiscoveryProbeFindsTheModernEra() throws Exception {
        JsonNode out = run("auto", stack.mcpUrl(), token);
        assertEquals("modern", out.path("era").asText(), out.toString());
        assertTrue(out.path("discover").path("supportedVersions").toString().contains("2026-07-28"), out.toString());
        assertEquals(12, out.path("tools").asInt());
        assertEquals(1, out.path("questions").size(), out.toString());
        assertFalse(out.path("asked").path("isError").asBoolean(), out.path("asked").toString());
        assertTrue(out.path("asked").path("text").asText().contains("\"database\":\"staging\""), out.path("asked").toString());
    }

    @Test
    void aSecretIsAskedInUrlModeAndTheRetryReadsWhatThePageSubmitted() throws Exception {
        try (SecretServer server = SecretServer.start()) {
            JsonNode out = run("urlMode", server.mcpUrl(), "user-v", "PAGE_SUBMIT_URL=" + server.pageSubmitUrl());
            JsonNode question = out.path("questions").path(0);
            assertEquals("url", question.path("mode").asText(), out.toString());
            assertTrue(question.path("url").asText().startsWith("https://page.example/?conversation=mcp-q-"), question.toString());
            assertFalse(question.has("requestedSchema"), "no form for a secret: " + question);
            JsonNode answered = out.path("answered");
            assertFalse(answered.path("isError").asBoolean(), answered.toString());
            assertTrue(answered.path("text").asText().contains("\"passwordLength\":13"), answered.toString());
            assertFalse(answered.toString().contains("correct horse"), "the secret is never shown back");
            assertTrue(out.path("declined").path("isError").asBoolean(), out.path("declined").toString());
        }
    }

    /**
     * An MCP endpoint (on DynamoDB Local) whose search_database_schema asks for a password, over HTTP on loopback, and
     * a stand-in for the reference page's submit: the input request completed through the lifecycle, as the HTTP API's
     * submit route completes it. The bearer token is taken as the user's id.
     */
    private record SecretServer(HttpServer http, DynamoDbLocalLauncher dynamo) implements AutoCloseable {

        static SecretServer start() throws Exception {
            DynamoDbLocalLauncher dynamo = DynamoDbLocalLauncher.start();
            TemplateTables.Created tables = new TemplateTables(SamTemplate.load(SamTemplate.locate())).createAll(dynamo.client(), "v2-");
            Map<String, String> env = new LinkedHashMap<>(tables.environment());
            env.put("DYNAMODB_ENDPOINT", dynamo.endpoint().toString());
            env.put("AWS_REGION", "us-east-1");
            env.put("DATA_SOURCES", "{\"production\": {}, \"staging\": {}}");
            env.put("MCP_PAGE_URL", "https://page.example/");
            env.put("MCP_REQUEST_STATE_KEY", "key-material-of-this-test-server-0123456789abcdef");
            McpEndpoint endpoint = new McpFunction(ToolAssembly.fromEnvironment(env).runningToolsWith(new InProcessToolInvoker(List.of(
                    new McpSessionsOnDynamoDbTest.NeedsAPassword()))), env,
                    h -> Optional.ofNullable(h).filter(v -> v.startsWith("Bearer ")).map(v -> v.substring(7)), Clock.systemUTC()).endpoint();
            String table = env.get("USER_INPUT_TABLE");
            InputRequestService inputRequests = new InputRequestService(new DynamoDbInputRequestStore(dynamo.client(), table,
                    InputRequestService.Expiry.DEFAULT.valuesTtl()), new DynamoDbSavedValuesStore(dynamo.client(), table),
                    Clock.systemUTC(), InputRequestService.Expiry.DEFAULT);
            HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            http.createContext("/mcp", exchange -> mcp(endpoint, exchange));
            http.createContext("/page-submit", exchange -> {
                JsonNode body = Json.parse(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                inputRequests.submit("user-v", body.path("conversation").asText(), body.path("inputRequest").asText(), body.path("values"), false);
                send(exchange, 200, "{}", Map.of("content-type", "application/json"));
            });
            http.start();
            return new SecretServer(http, dynamo);
        }

        private static void mcp(McpEndpoint endpoint, HttpExchange exchange) throws IOException {
            Map<String, String> headers = new LinkedHashMap<>();
            exchange.getRequestHeaders().forEach((name, values) -> headers.put(name, String.join(",", values)));
            InMemoryResponseStream response = new InMemoryResponseStream();
            endpoint.handle(new McpHttpRequest(exchange.getRequestMethod(), exchange.getRequestURI().getPath(), headers,
                    new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8), "http"), response, Optional.empty());
            send(exchange, response.statusCode(), response.body(), response.headers());
        }

        private static void send(HttpExchange exchange, int status, String body, Map<String, String> headers) throws IOException {
            headers.forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                exchange.getResponseBody().write(bytes);
            }
            exchange.close();
        }

        String mcpUrl() {
            return "http://127.0.0.1:" + http.getAddress().getPort() + "/mcp";
        }

        String pageSubmitUrl() {
            return "http://127.0.0.1:" + http.getAddress().getPort() + "/page-submit";
        }

        @Override
        public void close() {
            http.stop(0);
            dynamo.close();
        }
    }
}
