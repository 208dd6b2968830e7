package dev.tablewright.systemtest.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.fakes.stream.UiMessageStreamReader;
import dev.tablewright.fakes.configs.SampleConfigs;
import dev.tablewright.fakes.dynamodb.DynamoDbLocalLauncher;
import dev.tablewright.fakes.dynamodb.FaultyDynamoDbProxy;
import dev.tablewright.fakes.dynamodb.FaultyDynamoDbProxy.Fault;
import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.json.Json;
import dev.tablewright.localstack.local.LocalDeployment;
import dev.tablewright.fakes.concurrent.Poll;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The local stack on any DynamoDB engine ({@code DYNAMODB_ENDPOINT} in its shell), here {@link FaultyDynamoDbProxy}
 * in front of a DynamoDB Local: each user-facing write answers exactly as without the fault when its answer is lost
 * once, it is throttled three times or answered 500 three times (the functions' own clients, the SDK's retries);
 * a 500 burst longer than the retries is a clear {@code 503} and nothing is half-written. One stack for the class.
 */
class LocalStackStorageFaultsTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    /** A fault as the issue's matrix counts it: an answer lost once, throttled 3×, 500 3×. */
    enum Burst {
        LOST(Fault.LOSE_ANSWER, 1), THROTTLED(Fault.THROTTLING, 3), FAILING(Fault.INTERNAL_ERROR, 3);

        final Fault fault;
        final int times;

        Burst(Fault fault, int times) {
            this.fault = fault;
            this.times = times;
        }
    }

    static DynamoDbLocalLauncher dynamo;
    static FaultyDynamoDbProxy proxy;
    static LocalDeployment stack;
    static DynamoDbClient direct;
    static String token;

    @BeforeAll
    static void start() throws Exception {
        dynamo = DynamoDbLocalLauncher.start();
        proxy = new FaultyDynamoDbProxy(dynamo.endpoint());
        stack = LocalDeployment.start(LocalDeployment.Settings.forTest(
                Map.of("DYNAMODB_ENDPOINT", proxy.endpoint().toString(), "TOOL_APPROVAL_SECRET", "faults-approval-secret-0123456789"),
                ModelScript.builder().build()));
        direct = dynamo.client();
        token = stack.issuer().mint(DevIssuer.DEV_USER);
    }

    @AfterAll
    static void stop() throws Exception {
        if (stack != null) {
            stack.close();
        }
        proxy.close();
        dynamo.close();
    }

    @BeforeEach
    void heal() {
        proxy.heal();
    }

    @Test
    void theStackUsesTheGivenEngineAndItsBannerNamesIt() {
        assertTrue(direct.listTables().tableNames().containsAll(List.of("ConversationsTable", "PreviewsTable", "ConfigsTable")),
                "the template's tables, created on the given engine");
        assertTrue(stack.banner().contains(proxy.endpoint() + "   (DYNAMODB_ENDPOINT)"), stack.banner());
    }

    /** A turn that builds a config and previews it: the preview's id. */
    private static String previewTurn(String conversation, String messageId) throws Exception {
        stack.model().scriptedServer().enqueue(ModelScript.builder()
                .turn(t -> t.toolCall("call_cols_" + messageId, "apply_column_change",
                        SampleConfigs.STOCK_COLUMNS_CHANGE.formatted(System.nanoTime())))
                .turn(t -> t.toolCall("call_prev_" + messageId, "preview_table_config", "{\"description\": \"Stock levels\"}"))
                .say("Here is the preview.")
                .build());
        List<JsonNode> parts = turn(conversation, messageId, "Stock levels please");
        return parts.stream().filter(p -> p.path("type").asText().equals("data-table-config-preview")).findFirst()
                .orElseThrow(() -> new AssertionError("no preview in " + parts)).path("data").path("previewId").asText();
    }

    private static List<JsonNode> turn(String conversation, String messageId, String text) throws Exception {
        ObjectNode body = Json.object().put("id", conversation).put("trigger", "submit-message");
        ObjectNode message = body.putObject("message").put("id", messageId).put("role", "user");
        message.putArray("parts").addObject().put("type", "text").put("text", text);
        return send(body);
    }

    private static List<JsonNode> send(ObjectNode body) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(stack.chatUrl())).timeout(Duration.ofMinutes(2))
                .header("authorization", "Bearer " + token).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(body))).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(UiMessageStreamReader.parse(r.body()).done(), r.body());
        List<JsonNode> parts = UiMessageStreamReader.parse(r.body()).parts();
        assertTrue(parts.stream().noneMatch(p -> p.path("type").asText().equals("error")), parts.toString());
        return parts;
    }

    private static List<Map<String, AttributeValue>> previewsOf(String conversation) {
        return direct.scan(b -> b.tableName("PreviewsTable").consistentRead(true)).items().stream()
                .filter(i -> i.containsKey("conversationId") && i.get("conversationId").s().equals(conversation)).toList();
    }

    private static void fail(String operation, String table, Burst burst) {
        proxy.fail(operation, table, burst.fault, burst.times);
    }

    @ParameterizedTest
    @EnumSource(Burst.class)
    void aPreviewSavedRejectedAndAcceptedUnderAFaultHappensOnce(Burst burst) throws Exception {
        String conversation = "faults-preview-" + burst + "-" + System.nanoTime();
        int faultedBefore = proxy.faultedCalls("PutItem");
        fail("PutItem", "PreviewsTable", burst);
        String rejectedId = previewTurn(conversation, "u1");
        assertEquals(faultedBefore + burst.times, proxy.faultedCalls("PutItem"), "the preview's save met the fault");
        assertEquals(1, previewsOf(conversation).size(), "one preview");

        fail("UpdateItem", "PreviewsTable", burst);
        HttpResponse<String> rejected = stack.call("POST", "/previews/" + rejectedId + "/reject", token, "{}");
        assertEquals(200, rejected.statusCode(), rejected.body());
        assertEquals("rejected", Json.parse(rejected.body()).path("status").asText(), rejected.body());

        String acceptedId = previewTurn(conversation, "u2");
        fail("TransactWriteItems", "ConfigsTable", burst);
        HttpResponse<String> accepted = stack.call("POST", "/previews/" + acceptedId + "/accept", token, "{}");
        assertEquals(201, accepted.statusCode(), accepted.body());
        JsonNode config = Json.parse(accepted.body()).path("config");
        String configId = config.path("configId").asText();
        HttpResponse<String> versions = stack.call("GET", "/configs/" + configId + "/versions", token, null);
        assertEquals(1, Json.parse(versions.body()).path("versions").size(), versions.body());
        assertEquals(2, previewsOf(conversation).size(), "one preview per preview call");
    }

    @ParameterizedTest
    @EnumSource(Burst.class)
    void aConversationRenamedAndDeletedUnderAFaultAnswersAsWithout(Burst burst) throws Exception {
        String conversation = "faults-conv-" + burst + "-" + System.nanoTime();
        stack.model().scriptedServer().enqueue(ModelScript.builder().say("Hello.").build());
        fail("PutItem", "ConversationsTable", burst); // the turn's own saves
        turn(conversation, "u1", "hi");
        HttpResponse<String> stored = stack.call("GET", "/conversations/" + conversation, token, null);
        assertEquals(200, stored.statusCode(), stored.body());
        assertEquals(2, Json.parse(stored.body()).path("messages").size(), stored.body());

        fail("UpdateItem", "ConversationsTable", burst);
        HttpResponse<String> renamed = stack.call("PATCH", "/conversations/" + conversation, token, "{\"title\": \"Renamed\"}");
        assertEquals(200, renamed.statusCode(), renamed.body());

        fail("DeleteItem", "ConversationsTable", burst);
        HttpResponse<String> deleted = stack.call("DELETE", "/conversations/" + conversation, token, null);
        assertEquals(204, deleted.statusCode(), deleted.body());
        assertEquals(404, stack.call("GET", "/conversations/" + conversation, token, null).statusCode());
    }

    /**
     * The turn's own writes one at a time: the {@code n}th put of the conversation's table (the start's body and item,
     * the end's body and item) and the {@code n}th put of the stream log (its marker, its batches) with its answer
     * lost, and the marker's removal: the turn is stored once, whole, and its marker is gone.
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(ints = {0, 1, 2, 3})
    void eachOfTheTurnsOwnWritesWithItsAnswerLostStoresTheTurnOnce(int n) throws Exception {
        String conversation = "faults-turn-" + n + "-" + System.nanoTime();
        int before = proxy.faultedCalls("PutItem");
        for (String table : List.of("ConversationsTable", "TurnStreamsTable")) {
            if (n > 0) {
                proxy.delay("PutItem", table, Duration.ZERO, n);
            }
            proxy.fail("PutItem", table, Fault.LOSE_ANSWER, 1);
        }
        proxy.fail("DeleteItem", "TurnStreamsTable", Fault.LOSE_ANSWER, 1);
        stack.model().scriptedServer().enqueue(ModelScript.builder().say("Stored once.").build());
        turn(conversation, "u1", "hello");
        assertTrue(proxy.faultedCalls("PutItem") > before, "a put's answer was lost");
        HttpResponse<String> stored = stack.call("GET", "/conversations/" + conversation, token, null);
        assertEquals(200, stored.statusCode(), stored.body());
        assertEquals(2, Json.parse(stored.body()).path("messages").size(), stored.body());
        awaitMarkerGone(conversation);
    }

    /** Throttled and 500 bursts on each of the turn's saves after its first (the first is the rename test's), one at a time. */
    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> burstsOnTheTurnsLaterSaves() {
        return java.util.stream.Stream.of(Burst.THROTTLED, Burst.FAILING)
                .flatMap(burst -> java.util.stream.IntStream.rangeClosed(1, 3)
                        .mapToObj(n -> org.junit.jupiter.params.provider.Arguments.of(burst, n)));
    }

    /**
     * The {@code n}th put of the turn's saves (the start's body part and item, the end's body part and item) throttled
     * or answered 500 three times: the SDK's retries meet it, and the turn is stored once, whole, its marker gone.
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.MethodSource("burstsOnTheTurnsLaterSaves")
    void eachOfTheTurnsLaterSavesUnderABurstStoresTheTurnOnce(Burst burst, int n) throws Exception {
        String conversation = "faults-saves-" + burst + "-" + n + "-" + System.nanoTime();
        int before = proxy.faultedCalls("PutItem");
        proxy.delay("PutItem", "ConversationsTable", Duration.ZERO, n);
        fail("PutItem", "ConversationsTable", burst);
        stack.model().scriptedServer().enqueue(ModelScript.builder().say("Stored once.").build());
        turn(conversation, "u1", "hello");
        // the turn's saves (its start, then its end) are done before [DONE]: nothing of them is still being retried
        assertEquals(before + burst.times, proxy.faultedCalls("PutItem"), "the save met the fault");
        HttpResponse<String> stored = stack.call("GET", "/conversations/" + conversation, token, null);
        assertEquals(200, stored.statusCode(), stored.body());
        assertEquals(2, Json.parse(stored.body()).path("messages").size(), stored.body());
        awaitMarkerGone(conversation);
    }

    /**
     * The conversation's running-turn marker, read past the proxy, is gone: the recording (and its marker) ends after
     * the turn's stream does, so the client may see [DONE] first.
     */
    private static void awaitMarkerGone(String conversation) {
        Poll.until("the running-turn marker is gone", Duration.ofSeconds(20), () -> direct.getItem(b -> b.tableName("TurnStreamsTable")
                .consistentRead(true).key(Map.of(
                "pk", AttributeValue.fromS("OWNER#" + DevIssuer.DEV_USER + "#CONV#" + conversation),
                "sk", AttributeValue.fromS("ACTIVE")))).item().isEmpty());
    }

    private static final String FORM = """
            {"toolName": "run_report", "toolCallId": "%s", "reason": "Which database?",
             "fields": [{"name": "database", "label": "Database", "type": "select", "options": ["production", "staging"], "required": true}]}""";

    @ParameterizedTest
    @EnumSource(Burst.class)
    void anInputRequestCreatedAndAnsweredUnderAFaultHappensOnce(Burst burst) throws Exception {
        String conversation = "faults-input-" + burst + "-" + System.nanoTime();
        fail("TransactWriteItems", "UserInputTable", burst);
        HttpResponse<String> created = stack.call("POST", "/conversations/" + conversation + "/input-requests", token, FORM.formatted("call_1"));
        assertEquals(201, created.statusCode(), created.body());
        fail("TransactWriteItems", "UserInputTable", burst);
        HttpResponse<String> answered = stack.call("POST", "/conversations/" + conversation + "/input-requests/call_1/response", token,
                "{\"values\": {\"database\": \"staging\"}}");
        assertEquals(200, answered.statusCode(), answered.body());
        HttpResponse<String> again = stack.call("POST", "/conversations/" + conversation + "/input-requests/call_1/response", token,
                "{\"values\": {\"database\": \"production\"}}");
        assertEquals(409, again.statusCode(), "a second answer is a real conflict: " + again.body());
    }

    /**
     * The user's other input writes: a request cancelled (its conditional update) and a value saved for the user
     * cleared (read first, then deleted), each under the fault, answer as without it; a second cancel or clear is
     * refused as before.
     */
    @ParameterizedTest
    @EnumSource(Burst.class)
    void anInputRequestCancelledAndAUserValueClearedUnderAFaultHappenOnce(Burst burst) throws Exception {
        String conversation = "faults-cancel-" + burst + "-" + System.nanoTime();
        String base = "/conversations/" + conversation + "/input-requests";
        assertEquals(201, stack.call("POST", base, token, FORM.formatted("call_c")).statusCode());
        int updatesFaulted = proxy.faultedCalls("UpdateItem");
        fail("UpdateItem", "UserInputTable", burst);
        HttpResponse<String> cancelled = stack.call("POST", base + "/call_c/cancel", token, null);
        assertEquals(200, cancelled.statusCode(), cancelled.body());
        assertEquals("cancelled", Json.parse(cancelled.body()).at("/request/status").asText(), cancelled.body());
        assertEquals(updatesFaulted + burst.times, proxy.faultedCalls("UpdateItem"), "the cancel met the fault");
        assertEquals(409, stack.call("POST", base + "/call_c/cancel", token, null).statusCode(), "a second cancel is refused");

        String field = "region_" + burst.name().toLowerCase(java.util.Locale.ROOT); // the user's values outlive a conversation
        assertEquals(201, stack.call("POST", base, token, """
                {"toolName": "pick_region", "toolCallId": "call_r", "reason": "Region?", "saveForSession": true, "scope": "user",
                 "fields": [{"name": "%s", "type": "select", "options": ["eu", "us"], "required": true}]}""".formatted(field)).statusCode());
        assertEquals(200, stack.call("POST", base + "/call_r/response", token, "{\"values\": {\"" + field + "\": \"us\"}}").statusCode());
        assertTrue(stack.call("GET", "/users/me/values", token, null).body().contains(field), "saved for the user");
        int deletesFaulted = proxy.faultedCalls("DeleteItem");
        fail("DeleteItem", "UserInputTable", burst);
        HttpResponse<String> cleared = stack.call("DELETE", "/users/me/values/" + field, token, null);
        assertEquals(204, cleared.statusCode(), "cleared, not 404: " + cleared.body());
        assertEquals(deletesFaulted + burst.times, proxy.faultedCalls("DeleteItem"), "the clear met the fault");
        assertFalse(stack.call("GET", "/users/me/values", token, null).body().contains(field), "gone");
        assertEquals(404, stack.call("DELETE", "/users/me/values/" + field, token, null).statusCode(), "nothing left to clear");
    }

    /** A config created and changed through the API, each transaction under the fault: one config, one version each. */
    @ParameterizedTest
    @EnumSource(Burst.class)
    void aConfigCreatedAndUpdatedUnderAFaultIsWrittenOnce(Burst burst) throws Exception {
        String name = "Faults " + burst + " " + System.nanoTime();
        int faulted = proxy.faultedCalls("TransactWriteItems");
        fail("TransactWriteItems", "ConfigsTable", burst);
        HttpResponse<String> created = stack.call("POST", "/configs", token, configBody(SampleConfigs.orders(name), null));
        assertEquals(201, created.statusCode(), created.body());
        String configId = Json.parse(created.body()).path("configId").asText();
        assertEquals(1, Json.parse(created.body()).path("version").asInt(), created.body());

        fail("TransactWriteItems", "ConfigsTable", burst);
        HttpResponse<String> updated = stack.call("PUT", "/configs/" + configId, token,
                configBody(SampleConfigs.describe(SampleConfigs.orders(name), "changed"), 1L));
        assertEquals(200, updated.statusCode(), updated.body());
        assertEquals(2, Json.parse(updated.body()).path("version").asInt(), updated.body());
        assertEquals(faulted + 2 * burst.times, proxy.faultedCalls("TransactWriteItems"), "both writes met the fault");

        HttpResponse<String> versions = stack.call("GET", "/configs/" + configId + "/versions", token, null);
        assertEquals(2, Json.parse(versions.body()).path("versions").size(), "one version per write: " + versions.body());
        long named = Json.parse(stack.call("GET", "/configs?limit=50", token, null).body()).path("configs").findValues("name").stream()
                .filter(n -> n.asText().equals(name)).count();
        assertEquals(1, named, "one config");
        HttpResponse<String> stale = stack.call("PUT", "/configs/" + configId, token,
                configBody(SampleConfigs.describe(SampleConfigs.orders(name), "stale"), 1L));
        assertEquals(409, stale.statusCode(), "another change on the old version is a real conflict: " + stale.body());
    }

    private static String configBody(dev.tablewright.config.TableConfig config, Long baseVersion) {
        ObjectNode out = Json.object();
        if (baseVersion != null) {
            out.put("baseVersion", baseVersion);
        }
        out.set("config", dev.tablewright.codec.ConfigJson.write(config));
        return Json.write(out);
    }

    /**
     * An approval in the chat: the turn issues the call that keeps its preview (the approval's item written under the
     * fault), the user approves it (its claim and settlement, and the config's transaction, under the fault): one
     * config at version 1, answered as without the fault.
     */
    @ParameterizedTest
    @EnumSource(Burst.class)
    void anApprovalInTheChatUnderAFaultSavesOnce(Burst burst) throws Exception {
        String conversation = "faults-approval-" + burst + "-" + System.nanoTime();
        stack.model().scriptedServer().enqueue(ModelScript.builder()
                .turn(t -> t.toolCall("call_cols", "apply_column_change", SampleConfigs.STOCK_COLUMNS_CHANGE.formatted(System.nanoTime())))
                .turn(t -> t.toolCall("call_prev", "preview_table_config", "{\"description\": \"Stock levels\"}"))
                .say("Here is the preview.")
                .say("Saved.")
                .build());
        int putsFaulted = proxy.faultedCalls("PutItem");
        int updatesFaulted = proxy.faultedCalls("UpdateItem");
        proxy.fail("PutItem", "ConversationsTable", "APPROVAL#", burst.fault, burst.times);
        ObjectNode first = Json.object().put("id", conversation).put("trigger", "submit-message").put("toolApprovals", true);
        ObjectNode question = first.putObject("message").put("id", "u1").put("role", "user");
        question.putArray("parts").addObject().put("type", "text").put("text", "Stock levels please");
        List<JsonNode> asked = send(first);
        assertTrue(asked.stream().anyMatch(p -> p.path("type").asText().equals("tool-approval-request")), asked.toString());
        assertEquals(putsFaulted + burst.times, proxy.faultedCalls("PutItem"), "the approval's issue met the fault");

        HttpResponse<String> stored = stack.call("GET", "/conversations/" + conversation, token, null);
        JsonNode assistant = null;
        for (JsonNode m : Json.parse(stored.body()).path("messages")) {
            if (m.path("role").asText().equals("assistant")) {
                assistant = m.deepCopy();
            }
        }
        assertTrue(assistant != null, stored.body());
        for (JsonNode part : assistant.path("parts")) {
            if (part.path("type").asText().equals("tool-accept_preview")) {
                ((ObjectNode) part).put("state", "approval-responded");
                ((ObjectNode) part.path("approval")).put("approved", true);
            }
        }
        proxy.fail("UpdateItem", "ConversationsTable", "APPROVAL#", burst.fault, burst.times);
        fail("TransactWriteItems", "ConfigsTable", burst);
        ObjectNode answer = Json.object().put("id", conversation).put("trigger", "submit-message").put("toolApprovals", true);
        answer.set("message", assistant);
        List<JsonNode> answered = send(answer);
        JsonNode output = answered.stream().filter(p -> p.path("type").asText().equals("tool-output-available")).findFirst()
                .orElseThrow(() -> new AssertionError(answered.toString())).path("output");
        assertEquals(1, output.path("version").asInt(), output.toString());
        assertEquals(updatesFaulted + burst.times, proxy.faultedCalls("UpdateItem"), "the approval's claim met the fault");
        HttpResponse<String> versions = stack.call("GET", "/configs/" + output.path("configId").asText() + "/versions", token, null);
        assertEquals(1, Json.parse(versions.body()).path("versions").size(), versions.body());
    }

    private static HttpResponse<String> mcp(String session, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(stack.mcpUrl())).timeout(Duration.ofSeconds(60))
                .header("authorization", "Bearer " + token).header("content-type", "application/json")
                .header("accept", "application/json, text/event-stream").header("mcp-protocol-version", "2025-06-18")
                .method(body == null ? "DELETE" : "POST", body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            b.header("mcp-session-id", session);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"faults\",\"version\":\"1\"}}}";

    @ParameterizedTest
    @EnumSource(Burst.class)
    void anMcpSessionOpenedAndClosedUnderAFaultWorksAsWithout(Burst burst) throws Exception {
        fail("PutItem", "McpSessionsTable", burst);
        HttpResponse<String> init = mcp(null, INITIALIZE);
        assertEquals(200, init.statusCode(), init.body());
        String session = init.headers().firstValue("mcp-session-id").orElseThrow(() -> new AssertionError(init.headers().toString()));
        assertEquals(202, mcp(session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").statusCode());
        HttpResponse<String> tools = mcp(session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
        assertEquals(200, tools.statusCode(), tools.body());
        assertTrue(tools.body().contains("preview_table_config"), tools.body());

        fail("DeleteItem", "McpSessionsTable", burst);
        HttpResponse<String> closed = mcp(session, null);
        assertEquals(200, closed.statusCode(), "closed, though its answer was lost: " + closed.body());
        assertEquals(404, mcp(session, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}").statusCode(), "gone");
    }

    private static final String STATELESS = "2026-07-28";

    /** A 2026-07-28 tools/call (no session): the tool, its arguments, and a retry's answers and state. */
    private static JsonNode mcpCall(String tool, ObjectNode arguments, ObjectNode answers, String state) throws Exception {
        ObjectNode params = Json.object().put("name", tool);
        params.set("arguments", arguments);
        ObjectNode meta = params.putObject("_meta").put("io.modelcontextprotocol/protocolVersion", STATELESS);
        meta.putObject("io.modelcontextprotocol/clientCapabilities").putObject("elicitation").putObject("form");
        meta.putObject("io.modelcontextprotocol/clientInfo").put("name", "faults").put("version", "1");
        if (answers != null) {
            params.set("inputResponses", answers);
            params.put("requestState", state);
        }
        ObjectNode body = Json.object().put("jsonrpc", "2.0").put("id", 7).put("method", "tools/call");
        body.set("params", params);
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(stack.mcpUrl())).timeout(Duration.ofSeconds(60))
                .header("authorization", "Bearer " + token).header("content-type", "application/json")
                .header("accept", "application/json, text/event-stream").header("mcp-protocol-version", STATELESS)
                .header("mcp-method", "tools/call").header("mcp-name", tool)
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(body))).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        JsonNode result = Json.parse(r.body()).path("result");
        assertFalse(result.isMissingNode(), r.body());
        return result;
    }

    /**
     * MCP's accept_preview through the MCP endpoint (2026-07-28: the confirmation asked, the confirmed retry accepts),
     * its transaction under the fault: one config at version 1, the preview accepted, answered as without the fault.
     */
    @ParameterizedTest
    @EnumSource(Burst.class)
    void anMcpAcceptOfAPreviewUnderAFaultSavesOneVersion(Burst burst) throws Exception {
        String name = "Mcp faults " + burst + " " + System.nanoTime();
        ObjectNode previewArguments = Json.object();
        previewArguments.set("config", Json.parse("""
                {"name": "%s", "data_source": [{"schema": "sales", "source": "orders",
                 "select": {"columns": [{"name": "id"}]}}], "visual_settings": {"columns": {"id": {"header": "ID"}}}}""".formatted(name)));
        JsonNode preview = mcpCall("preview_table_config", previewArguments, null, null);
        String previewId = preview.path("structuredContent").path("previewId").asText();
        assertTrue(previewId.startsWith("prv_"), preview.toString());

        ObjectNode arguments = Json.object().put("previewId", previewId);
        JsonNode asked = mcpCall("accept_preview", arguments, null, null);
        assertEquals("input_required", asked.path("resultType").asText(), asked.toString());
        String key = asked.path("inputRequests").fieldNames().next();
        ObjectNode confirmed = Json.object();
        confirmed.putObject(key).put("action", "accept").putObject("content").put("confirm", true);

        int faulted = proxy.faultedCalls("TransactWriteItems");
        fail("TransactWriteItems", "ConfigsTable", burst);
        JsonNode saved = mcpCall("accept_preview", arguments, confirmed, asked.path("requestState").asText());
        assertEquals(faulted + burst.times, proxy.faultedCalls("TransactWriteItems"), "the accept met the fault");
        assertEquals("complete", saved.path("resultType").asText(), saved.toString());
        assertFalse(saved.path("isError").asBoolean(), saved.toString());
        assertEquals(1, saved.path("structuredContent").path("version").asInt(), saved.toString());
        String configId = saved.path("structuredContent").path("configId").asText();
        HttpResponse<String> versions = stack.call("GET", "/configs/" + configId + "/versions", token, null);
        assertEquals(1, Json.parse(versions.body()).path("versions").size(), "one version: " + versions.body());
        assertEquals("accepted", Json.parse(stack.call("GET", "/previews/" + previewId, token, null).body()).path("status").asText());

        JsonNode again = mcpCall("accept_preview", arguments, confirmed, asked.path("requestState").asText());
        assertTrue(again.path("isError").asBoolean(), "the same accept sent again is refused: " + again);
    }

    /** MCP's confirmed accept_preview under a 500 burst longer than the retries: a tool error, the preview still pending. */
    @Test
    void anMcpAcceptUnderA500BurstLongerThanTheRetriesIsAToolErrorAndSavesNothing() throws Exception {
        ObjectNode previewArguments = Json.object();
        previewArguments.set("config", Json.parse("""
                {"name": "Mcp burst %d", "data_source": [{"schema": "sales", "source": "orders",
                 "select": {"columns": [{"name": "id"}]}}], "visual_settings": {"columns": {"id": {"header": "ID"}}}}""".formatted(System.nanoTime())));
        String previewId = mcpCall("preview_table_config", previewArguments, null, null).path("structuredContent").path("previewId").asText();
        ObjectNode arguments = Json.object().put("previewId", previewId);
        JsonNode asked = mcpCall("accept_preview", arguments, null, null);
        String key = asked.path("inputRequests").fieldNames().next();
        ObjectNode confirmed = Json.object();
        confirmed.putObject(key).put("action", "accept").putObject("content").put("confirm", true);

        proxy.fail("TransactWriteItems", "ConfigsTable", Fault.INTERNAL_ERROR, FaultyDynamoDbProxy.ALWAYS);
        JsonNode refused = mcpCall("accept_preview", arguments, confirmed, asked.path("requestState").asText());
        assertTrue(refused.path("isError").asBoolean(), refused.toString());
        assertTrue(refused.toString().contains("unavailable"), "says storage is unavailable: " + refused);
        proxy.heal();
        assertEquals("pending", Json.parse(stack.call("GET", "/previews/" + previewId, token, null).body()).path("status").asText(),
                "nothing half-written");
        JsonNode saved = mcpCall("accept_preview", arguments, confirmed, asked.path("requestState").asText());
        assertEquals(1, saved.path("structuredContent").path("version").asInt(), "the same confirmed retry saves, once storage answers: " + saved);
    }

    @Test
    void mcpUnderA500BurstAnswersAJsonRpcError() throws Exception {
        proxy.fail("PutItem", "McpSessionsTable", Fault.INTERNAL_ERROR, FaultyDynamoDbProxy.ALWAYS);
        HttpResponse<String> refused = mcp(null, INITIALIZE);
        assertEquals(503, refused.statusCode(), refused.body());
        assertTrue(refused.headers().firstValue("retry-after").isPresent(), refused.headers().toString());
        JsonNode error = Json.parse(refused.body()).path("error");
        assertTrue(error.path("code").isInt() && error.path("message").asText().contains("unavailable"), refused.body());
    }

    @Test
    void a500BurstLongerThanTheRetriesIsAClear503AndWritesNothing() throws Exception {
        String conversation = "faults-burst-" + System.nanoTime();
        String previewId = previewTurn(conversation, "u1");
        proxy.fail("UpdateItem", "PreviewsTable", Fault.INTERNAL_ERROR, FaultyDynamoDbProxy.ALWAYS);
        HttpResponse<String> refused = stack.call("POST", "/previews/" + previewId + "/reject", token, "{}");
        assertEquals(503, refused.statusCode(), refused.body());
        assertTrue(refused.headers().firstValue("retry-after").isPresent(), refused.headers().toString());
        assertEquals("unavailable", Json.parse(refused.body()).path("error").path("code").asText(), refused.body());
        proxy.heal();
        assertEquals("pending", previewsOf(conversation).getFirst().get("status").s(), "nothing half-written");
        assertEquals(200, stack.call("POST", "/previews/" + previewId + "/reject", token, "{}").statusCode(),
                "the same request works once storage answers again");
    }
}
