package dev.tablewright.systemtest.conversations;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.fakes.aws.DeveloperShell;
import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.fakes.model.BedrockModelServer;
import dev.tablewright.fakes.model.RecordedRequest;
import dev.tablewright.fakes.model.ScriptedModel;
import dev.tablewright.json.Json;
import dev.tablewright.localstack.local.LocalDeployment;
import dev.tablewright.logging.StructuredLog;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static dev.tablewright.systemtest.conversations.ConversationTurnsTest.columns;
import static dev.tablewright.systemtest.conversations.ConversationTurnsTest.only;
import static dev.tablewright.systemtest.conversations.ConversationTurnsTest.threeTurns;
import static dev.tablewright.systemtest.conversations.ConversationTurnsTest.turn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The local stack started in the shell of someone who works on AWS: temporary access keys with {@code AWS_REGION},
 * an {@code AWS_PROFILE} of a credentials file, long-term keys with only {@code AWS_DEFAULT_REGION}; none of them the
 * region the tables are in. In each: a stored conversation of three turns (a preview accepted over HTTP between the
 * second and the third), the conversation read back, {@code GET /configs}, and an MCP {@code tools/call} of
 * {@code list_table_configs} that finds the accepted config: every DynamoDB client of the stack (functions, stores,
 * MCP sessions, the turn-stream log) reaches the tables the launcher created, and nothing logs a
 * ResourceNotFoundException.
 *
 * <p>Two of the shells run the chat on Amazon Bedrock as a developer does ({@code MODEL_PROVIDER=bedrock} with a
 * {@code BEDROCK_MODEL_ID}), Bedrock being the stand-in at {@code BEDROCK_ENDPOINT}, set to accept only requests signed
 * with that shell's key id, session token and region.
 */
class ConversationsInAnAwsShellTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    static Stream<Arguments> shells() {
        return Stream.of(Arguments.of(DeveloperShell.sessionKeys(), true), Arguments.of(DeveloperShell.profile(), true),
                Arguments.of(DeveloperShell.accessKeys(), false));
    }

    @ParameterizedTest(name = "{0}, on Bedrock: {1}")
    @MethodSource("shells")
    void aStoredConversationTheConfigsApiAndAnMcpToolCall(DeveloperShell shell, boolean onBedrock) throws Exception {
        Map<String, String> env = new HashMap<>(shell.environment());
        BedrockModelServer bedrock = null;
        if (onBedrock) {
            bedrock = BedrockModelServer.start()
                    .verifySignatures(shell.accessKeyId(), shell.secretAccessKey(), shell.sessionToken(), shell.region());
            env.putAll(Map.of("MODEL_PROVIDER", "bedrock", "BEDROCK_MODEL_ID", "eu.amazon.nova-pro-v1:0",
                    "BEDROCK_ENDPOINT", bedrock.endpoint()));
        }
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        StructuredLog.redirect(new PrintStream(log, true, StandardCharsets.UTF_8));
        // Bedrock: no script, so the stack takes the shell's Bedrock settings as it does from a terminal
        try (LocalDeployment stack = LocalDeployment.start(LocalDeployment.Settings.forTest(env,
                onBedrock ? null : dev.tablewright.fakes.model.ModelScript.builder().build()))) {
            ScriptedModel model = onBedrock ? bedrock : stack.model().scriptedServer();
            if (onBedrock) {
                assertTrue(stack.model().describe().contains("Amazon Bedrock model eu.amazon.nova-pro-v1:0 in " + shell.region()),
                        stack.model().describe());
            }
            model.enqueue(threeTurns());
            String token = stack.issuer().mint(DevIssuer.DEV_USER);
            String conversation = "conv-shell-" + System.nanoTime();

            JsonNode preview1 = only(turn(stack.chatUrl(), token, conversation, "u1", "Show stock levels with item and quantity"),
                    "data-table-config-preview").path("data");
            assertEquals(List.of("item_id", "quantity"), columns(preview1.path("config")));
            JsonNode preview2 = only(turn(stack.chatUrl(), token, conversation, "u2", "Only rows with quantity above 100"),
                    "data-table-config-preview").path("data");
            HttpResponse<String> accepted = stack.call("POST", "/previews/" + preview2.path("previewId").asText() + "/accept", token, "{}");
            assertEquals(201, accepted.statusCode(), accepted.body());
            JsonNode saved = Json.parse(accepted.body()).path("config");
            String configId = saved.path("configId").asText(saved.path("id").asText());
            JsonNode preview3 = only(turn(stack.chatUrl(), token, conversation, "u3", "Sort by quantity, largest first"),
                    "data-table-config-preview").path("data");
            assertTrue(preview3.path("isUpdate").asBoolean(), preview3.toString());
            assertEquals(configId, preview3.path("configId").asText());

            HttpResponse<String> stored = stack.call("GET", "/conversations/" + conversation, token, null);
            assertEquals(200, stored.statusCode(), stored.body());
            assertEquals(6, Json.parse(stored.body()).path("messages").size(), stored.body());
            HttpResponse<String> configs = stack.call("GET", "/configs", token, null);
            assertEquals(200, configs.statusCode(), configs.body());
            assertTrue(configs.body().contains(configId), configs.body());

            JsonNode listed = mcpToolCall(stack, token, "list_table_configs", "{}");
            assertFalse(listed.path("result").path("isError").asBoolean(), listed.toString());
            assertTrue(Json.write(listed.path("result")).contains(configId), listed.toString());

            if (onBedrock) {
                for (RecordedRequest request : bedrock.requests()) {
                    assertTrue(shell.scopes(request.headers().get("Authorization")), request.headers().get("Authorization"));
                    assertEquals(shell.sessionToken() != null, request.headers().containsKey("X-Amz-Security-Token"), shell.name());
                }
                assertEquals(List.of(), bedrock.violations());
            }
        } finally {
            StructuredLog.redirect(System.out);
            if (bedrock != null) {
                bedrock.close();
            }
        }
        String logged = log.toString(StandardCharsets.UTF_8);
        assertFalse(logged.contains("ResourceNotFoundException"), logged);
        assertFalse(logged.contains("UnrecognizedClientException"), logged);
    }

    /** An MCP session (initialize, initialized) and one {@code tools/call} over the stack's /mcp: the JSON-RPC answer. */
    static JsonNode mcpToolCall(LocalDeployment stack, String token, String tool, String arguments) throws Exception {
        HttpResponse<String> init = mcp(stack, token, null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"shell-test\",\"version\":\"1\"}}}");
        assertEquals(200, init.statusCode(), init.body());
        String session = init.headers().firstValue("mcp-session-id").orElseThrow(() -> new AssertionError(init.headers().toString()));
        HttpResponse<String> initialized = mcp(stack, token, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        assertEquals(202, initialized.statusCode(), initialized.body());
        HttpResponse<String> call = mcp(stack, token, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"" + tool + "\",\"arguments\":" + arguments + "}}");
        assertEquals(200, call.statusCode(), call.body());
        String body = call.body().strip();
        if (!body.startsWith("{")) { // an SSE answer: its last data line is the response
            body = body.lines().filter(l -> l.startsWith("data: ")).reduce((a, b) -> b).orElseThrow().substring(6);
        }
        return Json.parse(body);
    }

    private static HttpResponse<String> mcp(LocalDeployment stack, String token, String session, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(stack.mcpUrl())).timeout(Duration.ofSeconds(60))
                .header("authorization", "Bearer " + token).header("content-type", "application/json")
                .header("accept", "application/json, text/event-stream").header("mcp-protocol-version", "2025-06-18")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            b.header("mcp-session-id", session);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
