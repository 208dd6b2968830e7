package dev.tablewright.systemtest.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.http.stream.InMemoryResponseStream;
import dev.tablewright.dynamodb.DynamoConfigStore;
import dev.tablewright.dynamodb.DynamoPreviewStore;
import dev.tablewright.json.Json;
import dev.tablewright.mcp.McpEndpoint;
import dev.tablewright.preview.PreviewStatus;
import dev.tablewright.systemtest.userinput.MutableClock;
import dev.tablewright.toolcontract.Tool;
import dev.tablewright.tools.PreviewTableConfigTool;
import dev.tablewright.tools.SearchDatabaseSchemaTool;
import dev.tablewright.userinput.InputRequestService;
import dev.tablewright.userinput.RequestStatus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MCP 2026-07-28 requests over DynamoDB Local and the sample database with two data sources, one endpoint per
 * "instance" (the same requestState key, as every instance of a deployment reads the same secret): a question is
 * answered at once with {@code input_required} and the retry continues at any instance; accept_preview saves once
 * however often the confirmed retry comes; a tampered, expired, foreign or re-targeted requestState, a header that
 * does not mirror the body and an unknown version are the spec's errors, before anything runs, with nothing changed.
 * The bearer token is taken as the user's id here; the token check itself is McpClientTest's.
 */
class McpStatelessOnDynamoDbTest {

    private static final String REVISION = "2026-07-28";
    private static final String FORM = "{\"elicitation\":{\"form\":{}}}";

    private static McpOnDynamoDb bed;
    private static InputRequestService inputRequests;
    private static DynamoPreviewStore previews;
    private static DynamoConfigStore configs;
    private static int ids = 100;

    @BeforeAll
    static void start() throws Exception {
        bed = McpOnDynamoDb.start("mcp26", Map.of("DATA_SOURCES", "{\"production\": {}, \"staging\": {}}",
                "INPUT_REQUEST_TTL_HOURS", "3", // a requestState lives as long as an input request
                "MCP_REQUEST_STATE_KEY", "the-same-key-in-every-instance-of-this-test-0123456789",
                "MCP_PAGE_URL", "https://page.example/"), List.of("sales"));
        inputRequests = bed.inputRequests();
        previews = bed.previews();
        configs = bed.configs();
    }

    @AfterAll
    static void stop() {
        if (bed != null) {
            bed.close();
        }
    }

    private static McpEndpoint instance(Clock clock, Tool... extra) {
        List<Tool> tools = new ArrayList<>(List.of(new SearchDatabaseSchemaTool(bed.databases()),
                new PreviewTableConfigTool(bed.databases(), previews, (owner, id) -> Optional.empty(), Clock.systemUTC(), 5, Duration.ofHours(1))));
        tools.addAll(List.of(extra));
        return bed.endpoint(clock, tools);
    }

    private static McpEndpoint instance() {
        return instance(Clock.systemUTC());
    }

    /** One answer: its status and its JSON-RPC message. */
    record Answer(int status, JsonNode message) {
        JsonNode result() {
            return message.path("result");
        }

        int errorCode() {
            return message.path("error").path("code").asInt();
        }
    }

    private static ObjectNode meta(String capabilities) {
        return McpOnDynamoDb.meta(REVISION, capabilities);
    }

    private static ObjectNode request(String method, ObjectNode params) {
        ObjectNode body = Json.object().put("jsonrpc", "2.0").put("id", ids++).put("method", method);
        body.set("params", params);
        return body;
    }

    /** A tools/call with the given arguments, capabilities, and (a retry) answers and state. */
    private static ObjectNode call(String tool, ObjectNode arguments, String capabilities, ObjectNode responses, String state) {
        ObjectNode params = Json.object().put("name", tool);
        params.set("arguments", arguments);
        params.set("_meta", meta(capabilities));
        if (responses != null) {
            params.set("inputResponses", responses);
        }
        if (state != null) {
            params.put("requestState", state);
        }
        return request("tools/call", params);
    }

    /** Sent with the headers a conforming client mirrors from the body (MCP-Protocol-Version, Mcp-Method, Mcp-Name). */
    private static Answer post(McpEndpoint endpoint, String user, ObjectNode body) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("MCP-Protocol-Version", body.path("params").path("_meta").path("io.modelcontextprotocol/protocolVersion").asText(REVISION));
        headers.put("Mcp-Method", body.path("method").asText());
        if (body.path("params").path("name").isTextual()) {
            headers.put("Mcp-Name", body.path("params").path("name").asText());
        }
        return post(endpoint, user, body, headers);
    }

    private static Answer post(McpEndpoint endpoint, String user, ObjectNode body, Map<String, String> extraHeaders) {
        InMemoryResponseStream response = McpOnDynamoDb.post(endpoint, user, extraHeaders, Json.write(body));
        assertTrue(response.statusCode() < 500, "never a 5xx: " + response.statusCode() + " " + response.body());
        try {
            return new Answer(response.statusCode(), Json.parse(response.body()));
        } catch (java.io.IOException e) {
            throw new AssertionError("not one JSON document: " + response.body(), e);
        }
    }

    private static ObjectNode answer(String key, String action, ObjectNode content) {
        ObjectNode responses = Json.object();
        ObjectNode response = responses.putObject(key).put("action", action);
        if (content != null) {
            response.set("content", content);
        }
        return responses;
    }

    private static String key(Answer inputRequired) {
        return inputRequired.result().path("inputRequests").fieldNames().next();
    }

    private static String text(Answer answer) {
        StringBuilder out = new StringBuilder();
        answer.result().path("content").forEach(c -> out.append(c.path("text").asText()).append('\n'));
        return out.toString();
    }

    private static void assertServerIdentified(Answer answer) {
        assertEquals("tablewright", answer.result().path("_meta").path("io.modelcontextprotocol/serverInfo").path("name").asText(),
                answer.message().toString());
    }

    private static final ObjectNode RETURNS = Json.object().put("query", "returns");

    @Test
    void aSearchWithoutADataSourceAsksAtOnceAndTheRetryContinuesAtAnotherInstance() {
        Answer first = post(instance(), "user-a", call("search_database_schema", RETURNS, FORM, null, null));
        assertEquals(200, first.status(), first.message().toString());
        assertEquals("input_required", first.result().path("resultType").asText(), first.message().toString());
        assertServerIdentified(first);
        String key = key(first);
        JsonNode question = first.result().path("inputRequests").path(key);
        assertEquals("elicitation/create", question.path("method").asText());
        assertEquals("form", question.path("params").path("mode").asText());
        assertEquals("[\"production\",\"staging\"]",
                question.path("params").path("requestedSchema").path("properties").path("database").path("enum").toString());
        String state = first.result().path("requestState").asText();
        assertFalse(state.isBlank());
        assertTrue(pending("user-a").isEmpty(), "a form question stores nothing: the state carries it");

        Answer retry = post(instance(), "user-a", call("search_database_schema", RETURNS, FORM,
                answer(key, "accept", Json.object().put("database", "staging")), state));
        assertEquals(200, retry.status(), retry.message().toString());
        assertEquals("complete", retry.result().path("resultType").asText(), retry.message().toString());
        assertFalse(retry.result().path("isError").asBoolean(), retry.message().toString());
        assertTrue(text(retry).contains("\"database\":\"staging\""), "staging's tables: " + text(retry));
        assertEquals("staging", retry.result().path("_meta").path("dev.tablewright/database").asText(), "which data source answered");
        assertTrue(text(retry).contains("pass \"database\": \"staging\""), text(retry));
        assertServerIdentified(retry);
    }

    @Test
    void aCallNamingItsDataSourceIsNeverAsked() {
        Answer answer = post(instance(), "user-a", call("search_database_schema",
                RETURNS.deepCopy().put("database", "production"), FORM, null, null));
        assertEquals("complete", answer.result().path("resultType").asText(), answer.message().toString());
        assertTrue(text(answer).contains("\"database\":\"production\""), text(answer));
        assertFalse(answer.result().path("_meta").has("dev.tablewright/database"), "nothing to tell: the call named it");
    }

    @Test
    void aClientThatCanAnswerNothingIsToldWhatTheUserMustProvide() {
        Answer answer = post(instance(), "user-a", call("search_database_schema", RETURNS, "{}", null, null));
        assertEquals("complete", answer.result().path("resultType").asText(), answer.message().toString());
        assertTrue(answer.result().path("isError").asBoolean(), answer.message().toString());
        assertTrue(text(answer).contains("database") && text(answer).contains("staging"), text(answer));
    }

    private static final ObjectNode CONFIG;

    static {
        try {
            CONFIG = (ObjectNode) Json.parse("""
                    {"name": "Orders 2026", "data_source": [{"schema": "sales", "source": "orders",
                     "select": {"columns": [{"name": "id"}]}}], "visual_settings": {"columns": {"id": {"header": "ID"}}}}""");
        } catch (java.io.IOException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A pending preview of the user's, made through the 2026 tools/call (naming its data source: no question). */
    private static String preview(String user, String name) {
        ObjectNode arguments = Json.object().put("database", "production");
        arguments.set("config", CONFIG.deepCopy().put("name", name));
        Answer made = post(instance(), user, call("preview_table_config", arguments, FORM, null, null));
        String previewId = made.result().path("structuredContent").path("previewId").asText();
        assertTrue(previewId.startsWith("prv_"), made.message().toString());
        return previewId;
    }

    private static int savedConfigs(String user) {
        return configs.list(user, 50, null).items().size();
    }

    @Test
    void aConfirmedAcceptPreviewSavesOneVersionHoweverOftenTheRetryIsSent() {
        String previewId = preview("user-p", "Saved once");
        ObjectNode arguments = Json.object().put("previewId", previewId);
        Answer asked = post(instance(), "user-p", call("accept_preview", arguments, FORM, null, null));
        assertEquals("input_required", asked.result().path("resultType").asText(), asked.message().toString());
        String key = key(asked);
        JsonNode params = asked.result().path("inputRequests").path(key).path("params");
        assertTrue(params.path("message").asText().contains("Saved once") && params.path("message").asText().contains("new table config"),
                params.toString());
        assertTrue(params.path("requestedSchema").path("properties").path("confirm").path("default").asBoolean(), params.toString());
        String state = asked.result().path("requestState").asText();
        ObjectNode confirmed = answer(key, "accept", Json.object().put("confirm", true));

        Answer saved = post(instance(), "user-p", call("accept_preview", arguments, FORM, confirmed, state));
        assertEquals("complete", saved.result().path("resultType").asText(), saved.message().toString());
        assertFalse(saved.result().path("isError").asBoolean(), saved.message().toString());
        assertEquals(1, saved.result().path("structuredContent").path("version").asInt(), saved.message().toString());
        for (int again = 0; again < 2; again++) {
            Answer repeated = post(instance(), "user-p", call("accept_preview", arguments, FORM, confirmed, state));
            assertTrue(repeated.result().path("isError").asBoolean(), repeated.message().toString());
            assertTrue(text(repeated).contains("no longer pending"), text(repeated));
        }
        assertEquals(1, savedConfigs("user-p"), "one config");
        assertEquals(1, configs.versions("user-p", saved.result().path("structuredContent").path("configId").asText(), 50, null)
                .items().size(), "one version");
    }

    @Test
    void confirmedRetriesSentAtOnceToSeveralInstancesSaveOnce() throws Exception {
        String previewId = preview("user-c", "Saved once, concurrently");
        ObjectNode arguments = Json.object().put("previewId", previewId);
        Answer asked = post(instance(), "user-c", call("accept_preview", arguments, FORM, null, null));
        ObjectNode confirmed = answer(key(asked), "accept", Json.object().put("confirm", true));
        String state = asked.result().path("requestState").asText();
        List<java.util.concurrent.CompletableFuture<Answer>> retries = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            McpEndpoint instance = instance();
            ObjectNode retry = call("accept_preview", arguments, FORM, confirmed, state);
            retries.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> post(instance, "user-c", retry)));
        }
        int saved = 0;
        for (var retry : retries) {
            Answer a = retry.get(60, java.util.concurrent.TimeUnit.SECONDS);
            saved += a.result().path("isError").asBoolean() ? 0 : 1;
        }
        assertEquals(1, saved, "exactly one retry saves");
        assertEquals(1, savedConfigs("user-c"));
    }

    @Test
    void aDeclinedConfirmationSavesNothing() {
        String previewId = preview("user-q", "Declined");
        ObjectNode arguments = Json.object().put("previewId", previewId);
        Answer asked = post(instance(), "user-q", call("accept_preview", arguments, FORM, null, null));
        Answer declined = post(instance(), "user-q", call("accept_preview", arguments, FORM,
                answer(key(asked), "decline", null), asked.result().path("requestState").asText()));
        assertTrue(declined.result().path("isError").asBoolean(), declined.message().toString());
        assertTrue(text(declined).contains("still pending"), text(declined));
        assertEquals(PreviewStatus.PENDING, previews.find("user-q", previewId).orElseThrow().statusAt(Instant.now()));
        assertEquals(0, savedConfigs("user-q"));
    }

    @Test
    void aTamperedExpiredForeignOrRetargetedStateIsRefusedBeforeAnythingRuns() {
        String previewId = preview("user-r", "Guarded");
        String otherPreview = preview("user-r", "Guarded too");
        ObjectNode arguments = Json.object().put("previewId", previewId);
        Answer asked = post(instance(), "user-r", call("accept_preview", arguments, FORM, null, null));
        String state = asked.result().path("requestState").asText();
        ObjectNode confirmed = answer(key(asked), "accept", Json.object().put("confirm", true));

        // a character inside the token: the last one of base64url may carry only padding bits, so changing it can
        // leave the decoded bytes as they were
        int at = state.length() / 2;
        String tampered = state.substring(0, at) + (state.charAt(at) == 'A' ? 'B' : 'A') + state.substring(at + 1);
        MutableClock later = new MutableClock(Instant.now());
        later.advance(Duration.ofHours(3).plusMinutes(1));
        List<Answer> refused = List.of(
                post(instance(), "user-r", call("accept_preview", arguments, FORM, confirmed, tampered)),
                post(instance(later), "user-r", call("accept_preview", arguments, FORM, confirmed, state)),
                post(instance(), "user-s", call("accept_preview", arguments, FORM, confirmed, state)),
                post(instance(), "user-r", call("accept_preview", Json.object().put("previewId", otherPreview), FORM, confirmed, state)),
                post(instance(), "user-r", call("reject_preview", arguments, FORM, confirmed, state)),
                post(instance(), "user-r", call("search_database_schema", RETURNS, FORM, confirmed, state)));
        for (Answer r : refused) {
            assertEquals(-32602, r.errorCode(), r.message().toString());
            assertEquals("Invalid or expired requestState", r.message().path("error").path("message").asText());
            assertTrue(r.message().path("id").isNumber(), "the request's id: " + r.message());
        }
        assertEquals(PreviewStatus.PENDING, previews.find("user-r", previewId).orElseThrow().statusAt(Instant.now()));
        assertEquals(PreviewStatus.PENDING, previews.find("user-r", otherPreview).orElseThrow().statusAt(Instant.now()));
        assertEquals(0, savedConfigs("user-r"), "nothing saved");
        // the genuine retry still works afterwards
        Answer saved = post(instance(), "user-r", call("accept_preview", arguments, FORM, confirmed, state));
        assertFalse(saved.result().path("isError").asBoolean(), saved.message().toString());
    }

    @Test
    void headersThatDoNotMirrorTheBodyAndUnknownVersionsAreTheSpecsErrors() {
        McpEndpoint endpoint = instance();
        ObjectNode list = request("tools/list", paramsWithMeta(FORM));
        assertError(post(endpoint, "user-h", list, Map.of("MCP-Protocol-Version", REVISION, "Mcp-Method", "prompts/list")), 400, -32020);
        assertError(post(endpoint, "user-h", list, Map.of("MCP-Protocol-Version", REVISION)), 400, -32020);
        assertError(post(endpoint, "user-h", list, Map.of("Mcp-Method", "tools/list")), 400, -32020);
        assertError(post(endpoint, "user-h", list, Map.of("MCP-Protocol-Version", "2025-11-25", "Mcp-Method", "tools/list")), 400, -32020);
        assertError(post(endpoint, "user-h", list, Map.of("MCP-Protocol-Version", REVISION, "Mcp-Method", "TOOLS/LIST")), 400, -32020);
        Answer listed = post(endpoint, "user-h", list, Map.of("mcp-protocol-version", " " + REVISION + " ", "MCP-METHOD", "tools/list"));
        assertEquals(200, listed.status(), "header names are case-insensitive, values trimmed: " + listed.message());

        ObjectNode search = call("search_database_schema", RETURNS.deepCopy().put("database", "production"), FORM, null, null);
        assertError(post(endpoint, "user-h", search, Map.of("MCP-Protocol-Version", REVISION, "Mcp-Method", "tools/call")), 400, -32020);
        assertError(post(endpoint, "user-h", search, Map.of("MCP-Protocol-Version", REVISION, "Mcp-Method", "tools/call",
                "Mcp-Name", "accept_preview")), 400, -32020);
        String encoded = "=?base64?" + Base64.getEncoder().encodeToString("search_database_schema".getBytes(StandardCharsets.UTF_8)) + "?=";
        Answer named = post(endpoint, "user-h", search, Map.of("MCP-Protocol-Version", REVISION, "Mcp-Method", "tools/call", "Mcp-Name", encoded));
        assertEquals("complete", named.result().path("resultType").asText(), "a Base64 Mcp-Name is decoded: " + named.message());

        ObjectNode old = request("tools/list", paramsWithMeta(FORM));
        ((ObjectNode) old.path("params").path("_meta")).put("io.modelcontextprotocol/protocolVersion", "1900-01-01");
        Answer unsupported = post(endpoint, "user-h", old);
        assertError(unsupported, 400, -32022);
        assertEquals("[\"2026-07-28\",\"2025-11-25\",\"2025-06-18\"]", unsupported.message().path("error").path("data").path("supported").toString());
        assertEquals("1900-01-01", unsupported.message().path("error").path("data").path("requested").asText());

        ObjectNode noCapabilities = request("tools/list", paramsWithMeta(FORM));
        ((ObjectNode) noCapabilities.path("params").path("_meta")).remove("io.modelcontextprotocol/clientCapabilities");
        assertError(post(endpoint, "user-h", noCapabilities), 400, -32602);
        assertError(post(endpoint, "user-h", request("tools/list", Json.object()),
                Map.of("MCP-Protocol-Version", REVISION, "Mcp-Method", "tools/list")), 400, -32602);
        for (String removed : List.of("initialize", "ping", "logging/setLevel", "resources/subscribe", "no/such/method")) {
            assertError(post(endpoint, "user-h", request(removed, paramsWithMeta(FORM))), 404, -32601);
        }
        assertTrue(pending("user-h").isEmpty(), "nothing asked, nothing stored");
    }

    @Test
    void discoverAndToolsListAreStatelessAndCacheable() {
        McpEndpoint endpoint = instance();
        Answer discovered = post(endpoint, "user-d", request("server/discover", paramsWithMeta("{}")));
        assertEquals(200, discovered.status(), discovered.message().toString());
        JsonNode result = discovered.result();
        assertEquals("[\"2026-07-28\",\"2025-11-25\",\"2025-06-18\"]", result.path("supportedVersions").toString());
        assertTrue(result.path("capabilities").path("tools").isObject(), result.toString());
        assertEquals("complete", result.path("resultType").asText());
        assertEquals("public", result.path("cacheScope").asText());
        assertTrue(result.path("ttlMs").asLong() > 0, result.toString());
        assertFalse(result.path("instructions").asText().isBlank());
        assertServerIdentified(discovered);

        Answer listed = post(endpoint, "user-d", request("tools/list", paramsWithMeta("{}")));
        assertEquals(12, listed.result().path("tools").size(), listed.message().toString());
        assertEquals("complete", listed.result().path("resultType").asText());
        assertEquals("public", listed.result().path("cacheScope").asText());
        assertTrue(listed.result().path("ttlMs").asLong() > 0);
        assertServerIdentified(listed);
    }

    @Test
    void aSecretIsAskedForOnThePageAndTheRetryReadsWhatThePageSubmitted() {
        McpEndpoint endpoint = instance(Clock.systemUTC(), new McpSessionsOnDynamoDbTest.NeedsAPassword());
        ObjectNode arguments = Json.object().put("query", "orders").put("database", "production");
        String capabilities = "{\"elicitation\":{\"form\":{},\"url\":{}}}";
        Answer asked = post(endpoint, "user-u", call("search_database_schema", arguments, capabilities, null, null));
        assertEquals("input_required", asked.result().path("resultType").asText(), asked.message().toString());
        String key = key(asked);
        JsonNode params = asked.result().path("inputRequests").path(key).path("params");
        assertEquals("url", params.path("mode").asText(), params.toString());
        assertFalse(params.has("requestedSchema"), "no form for a secret: " + params);
        String url = params.path("url").asText();
        assertTrue(url.startsWith("https://page.example/?conversation=mcp-q-"), url);
        String conversation = url.substring(url.indexOf("conversation=") + 13, url.indexOf('&'));
        String requestId = url.substring(url.indexOf("inputRequest=") + 13);
        String state = asked.result().path("requestState").asText();

        // accepted, but the page was not submitted yet: the same question again
        Answer early = post(endpoint, "user-u", call("search_database_schema", arguments, capabilities, answer(key, "accept", null), state));
        assertEquals("input_required", early.result().path("resultType").asText(), early.message().toString());
        assertEquals(url, early.result().path("inputRequests").path(key).path("params").path("url").asText());

        inputRequests.submit("user-u", conversation, requestId, Json.object().put("password", "correct horse"), false);
        Answer done = post(endpoint, "user-u", call("search_database_schema", arguments, capabilities, answer(key, "accept", null),
                early.result().path("requestState").asText()));
        assertEquals("complete", done.result().path("resultType").asText(), done.message().toString());
        assertTrue(text(done).contains("\"passwordLength\":13") && !text(done).contains("correct horse"), text(done));
        assertFalse(state.contains("correct"), "the secret never travels in a state");

        Answer formOnly = post(endpoint, "user-u", call("search_database_schema", arguments, FORM, null, null));
        assertTrue(formOnly.result().path("isError").asBoolean(), formOnly.message().toString());
        assertTrue(text(formOnly).contains("Enter it on the Tablewright page"), text(formOnly));
    }

    @Test
    void aSessionClientsRequestWithoutASessionIdIsAnInvalidParamsError() {
        Answer answer = post(instance(), "user-x", request("tools/list", Json.object()), Map.of());
        assertError(answer, 400, -32602);
    }

    private static ObjectNode paramsWithMeta(String capabilities) {
        ObjectNode params = Json.object();
        params.set("_meta", meta(capabilities));
        return params;
    }

    private static void assertError(Answer answer, int status, int code) {
        assertEquals(status, answer.status(), answer.message().toString());
        assertEquals(code, answer.errorCode(), answer.message().toString());
        assertNotNull(answer.message().get("id"), answer.message().toString());
        assertTrue(answer.message().path("id").isNumber(), "the request's id is echoed: " + answer.message());
    }

    private static List<dev.tablewright.userinput.InputRequest> pending(String user) {
        try {
            return inputRequests.list(user, "mcp-stateless", Optional.of(RequestStatus.PENDING));
        } catch (dev.tablewright.userinput.InputRequestNotFoundException e) {
            return List.of();
        }
    }
}
