package dev.tablewright.systemtest.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.localstack.local.LocalDeployment;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The official MCP TypeScript SDK client ({@code @modelcontextprotocol/sdk}, infra/mcp-client) against the local
 * stack's {@code /mcp}, with two data sources: the tools with their schemas, structured output the client checks
 * against the declared outputSchema, elicitation answered by the client, the save confirmation, sessions resumed and
 * refused, the 401 and the metadata document. Fails (never skips) without Node.
 */
class McpClientTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    @AutoClose
    private static LocalDeployment stack;
    private static String token;
    private static String otherToken;

    @BeforeAll
    static void start() throws Exception {
        stack = McpStack.start();
        token = stack.issuer().mint(DevIssuer.DEV_USER);
        otherToken = stack.issuer().mint("other-user");
    }

    private static JsonNode run(String scenario) throws Exception {
        return McpStack.scenario(stack, scenario, token, otherToken);
    }

    @Test
    void theToolsAreListedWithTruthfulAnnotationsAndTheirStructuredOutputMatchesTheSchema() throws Exception {
        JsonNode out = run("tools");
        List<String> names = new ArrayList<>();
        out.path("tools").forEach(t -> names.add(t.path("name").asText()));
        // the tool catalogue's tools offered on MCP, in the catalogue's order
        assertEquals(List.of("apply_column_change", "apply_filter_change", "apply_join_change", "apply_sort_change",
                "validate_table_config", "discover_table_reference", "search_database_schema", "preview_table_config",
                "get_table_config", "list_table_configs", "accept_preview", "reject_preview"), names);
        for (JsonNode t : out.path("tools")) {
            String name = t.path("name").asText();
            assertFalse(t.path("description").asText().isBlank(), name);
            assertEquals("object", t.path("inputSchemaType").asText(), name);
            boolean readOnly = t.path("annotations").path("readOnlyHint").asBoolean(false);
            boolean writes = List.of("preview_table_config", "accept_preview", "reject_preview").contains(name);
            assertEquals(!writes, readOnly, name + " readOnlyHint: " + t.path("annotations"));
            boolean structured = name.startsWith("apply_") || name.equals("validate_table_config")
                    || name.equals("preview_table_config") || name.equals("accept_preview");
            assertEquals(structured, t.path("hasOutputSchema").asBoolean(), name + " outputSchema");
            // a client that did not declare MCP Apps (io.modelcontextprotocol/ui) gets no UI metadata
            assertTrue(t.path("meta").isNull(), name + " _meta: " + t.path("meta"));
        }
        assertTrue(out.path("resources").isEmpty(), "no view offered without the extension: " + out.path("resources"));
        // the SDK client validated structuredContent against the outputSchema (it throws otherwise)
        JsonNode valid = out.path("valid");
        assertFalse(valid.path("isError").asBoolean(), valid.toString());
        assertTrue(valid.path("structuredContent").path("valid").asBoolean(), valid.toString());
        assertEquals("order_number", valid.path("structuredContent").path("config").path("data_source").path(0)
                .path("select").path("columns").path(1).path("name").asText(), valid.toString());
        JsonNode invalid = out.path("invalid");
        assertTrue(invalid.path("isError").asBoolean(), invalid.toString());
        assertTrue(invalid.path("text").asText().contains("columns[0].name"), invalid.toString());
        assertTrue(out.path("badArguments").path("isError").asBoolean(), out.path("badArguments").toString());
        assertTrue(out.path("badArguments").path("text").asText().contains("columns"), out.path("badArguments").toString());
        assertTrue(out.path("unknownTool").asText().contains("Unknown tool"), out.path("unknownTool").toString());
        assertEquals("tablewright", out.path("serverVersion").path("name").asText());
    }

    @Test
    void aDataSourceToolAsksOncePerSessionAndADeclineRemembersNothing() throws Exception {
        JsonNode out = run("elicitation");
        JsonNode first = out.path("firstSession");
        assertEquals(1, first.path("questions").size(), "asked once in the session: " + first.path("questions"));
        JsonNode question = first.path("questions").path(0);
        assertEquals("[\"production\",\"staging\"]", question.path("requestedSchema").path("properties").path("database").path("enum").toString(),
                question.toString());
        assertFalse(first.path("searched").path("isError").asBoolean(), first.toString());
        assertTrue(first.path("searched").path("text").asText().contains("returns"), "staging's tables: " + first.path("searched"));
        assertFalse(first.path("again").path("isError").asBoolean(), first.path("again").toString());
        JsonNode second = out.path("secondSession");
        assertEquals(2, second.path("questions").asInt(), "a new session asks again, and a decline is not remembered: " + second);
        assertTrue(second.path("declined").path("isError").asBoolean(), second.toString());
        assertTrue(second.path("declinedAgain").path("isError").asBoolean(), second.toString());
        JsonNode silent = out.path("withoutCapability");
        assertTrue(silent.path("isError").asBoolean(), silent.toString());
        assertTrue(silent.path("text").asText().contains("database") && silent.path("text").asText().contains("staging"), silent.toString());
    }

    @Test
    void acceptPreviewSavesOnlyWhatTheUserConfirms() throws Exception {
        JsonNode out = run("preview");
        assertFalse(out.path("preview").path("isError").asBoolean(), out.path("preview").toString());
        String previewId = out.path("previewId").asText();
        assertTrue(previewId.startsWith("prv_"), out.toString());
        assertTrue(out.path("declined").path("isError").asBoolean(), out.path("declined").toString());
        assertTrue(out.path("declined").path("text").asText().contains("still pending"), out.path("declined").toString());
        long confirmations = 0;
        for (JsonNode q : out.path("questions")) {
            if (q.path("requestedSchema").path("properties").has("confirm")) {
                confirmations++;
                assertTrue(q.path("message").asText().contains(out.path("name").asText()), q.toString());
                assertTrue(q.path("message").asText().contains("new table config"), q.toString());
            }
        }
        assertEquals(2, confirmations, "one question per accept_preview: " + out.path("questions"));
        JsonNode accepted = out.path("accepted");
        assertFalse(accepted.path("isError").asBoolean(), accepted.toString());
        String configId = accepted.path("structuredContent").path("configId").asText();
        assertEquals(1, accepted.path("structuredContent").path("version").asInt(), accepted.toString());
        assertTrue(out.path("acceptedTwice").path("isError").asBoolean(), out.path("acceptedTwice").toString());
        assertTrue(out.path("otherUser").path("isError").asBoolean(), "another user cannot accept it: " + out.path("otherUser"));
        assertFalse(out.path("ownRead").path("isError").asBoolean(), out.path("ownRead").toString());
        assertTrue(out.path("ownRead").path("text").asText().contains(configId), out.path("ownRead").toString());
        assertTrue(out.path("otherRead").path("isError").asBoolean(), "another user cannot read it over MCP: " + out.path("otherRead"));

        HttpResponse<String> configs = get("/configs", token);
        assertEquals(200, configs.statusCode(), configs.body());
        assertTrue(configs.body().contains(configId), "the accepted config is listed: " + configs.body());
        HttpResponse<String> others = get("/configs/" + configId, otherToken);
        assertEquals(404, others.statusCode(), "another user cannot read it: " + others.body());
    }

    @Test
    void aSessionResumesByIdButNotForAnotherUserAndATokenIsRequired() throws Exception {
        JsonNode out = run("sessions");
        assertTrue(out.path("resumedTools").asInt() > 0, out.toString());
        assertTrue(out.path("stolen").asText().contains("Session not found"), "another user's session is unknown: " + out.path("stolen"));
        assertEquals(401, out.path("anonymousStatus").asInt(), out.toString());
        assertTrue(out.path("challenge").asText().startsWith("Bearer resource_metadata=\""), out.toString());
        JsonNode metadata = out.path("metadata");
        assertEquals(stack.mcpUrl(), metadata.path("resource").asText(), metadata.toString());
        assertEquals(stack.issuer().issuer(), metadata.path("authorization_servers").path(0).asText(), metadata.toString());
        assertEquals(405, out.path("getStatus").asInt(), out.toString());
        assertTrue(out.path("afterDelete").asText().contains("Session not found"), "a deleted session is gone: " + out.path("afterDelete"));
    }

    @Test
    void malformedJsonRpcIsAProtocolErrorAndAForeignOriginIsRefused() throws Exception {
        HttpResponse<String> parse = post("{not json", null, token);
        assertEquals(400, parse.statusCode(), parse.body());
        assertEquals(-32700, Json.parse(parse.body()).path("error").path("code").asInt(), parse.body());
        HttpResponse<String> noSession = post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}", null, token);
        assertEquals(400, noSession.statusCode(), noSession.body());
        HttpResponse<String> foreign = HTTP.send(HttpRequest.newBuilder(URI.create(stack.mcpUrl()))
                .header("authorization", "Bearer " + token).header("origin", "http://evil.example.com")
                .header("content-type", "application/json").header("accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(403, foreign.statusCode(), foreign.body());
        HttpResponse<String> pathSuffixed = get("/.well-known/oauth-protected-resource/mcp", null);
        assertEquals(200, pathSuffixed.statusCode(), pathSuffixed.body());
        assertNotNull(Json.parse(pathSuffixed.body()).get("authorization_servers"), pathSuffixed.body());
    }

    private static HttpResponse<String> post(String body, String session, String bearer) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(stack.mcpUrl())).timeout(Duration.ofSeconds(30))
                .header("content-type", "application/json").header("accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (bearer != null) {
            b.header("authorization", "Bearer " + bearer);
        }
        if (session != null) {
            b.header("mcp-session-id", session);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(String path, String bearer) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(stack.url() + path)).timeout(Duration.ofSeconds(30)).GET();
        if (bearer != null) {
            b.header("authorization", "Bearer " + bearer);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
