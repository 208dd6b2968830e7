package dev.tablewright.systemtest.mcp;

import dev.tablewright.toolassembly.ToolAssembly;
import dev.tablewright.fakes.concurrent.Poll;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.http.stream.InMemoryResponseStream;
import dev.tablewright.fakes.tools.InProcessToolInvoker;
import dev.tablewright.functions.mcp.McpFunction;
import dev.tablewright.systemtest.userinput.MutableClock;
import dev.tablewright.json.Json;
import dev.tablewright.mcp.McpEndpoint;
import dev.tablewright.tools.SearchDatabaseSchemaTool;
import dev.tablewright.userinput.InputRequestService;
import dev.tablewright.userinput.RequestStatus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The MCP endpoint over DynamoDB Local (the template's tables) and the sample database with two data sources, one
 * endpoint per "instance": a question asked by one instance is answered through another (the input request is the
 * only channel between them), an unanswered question is withdrawn when the wait runs out, an expired session is
 * unknown. The bearer token is taken as the user's id here; the token check itself is McpClientTest's.
 */
class McpSessionsOnDynamoDbTest {

    private static McpOnDynamoDb bed;
    private static InputRequestService inputRequests;

    @BeforeAll
    static void start() throws Exception {
        bed = McpOnDynamoDb.start("mcp", Map.of("DATA_SOURCES", "{\"production\": {}, \"staging\": {}}",
                "MCP_ELICITATION_WAIT_SECONDS", "2",
                "INPUT_REQUEST_TTL_HOURS", "3"), // not the default (24): the endpoint's questions live as the settings say
                List.of("sales"));
        inputRequests = bed.inputRequests();
    }

    @AfterAll
    static void stop() {
        if (bed != null) {
            bed.close();
        }
    }

    private static McpEndpoint instance(Clock clock) {
        return bed.endpoint(clock, List.of(new SearchDatabaseSchemaTool(bed.databases())));
    }

    private static InMemoryResponseStream post(McpEndpoint endpoint, String user, String session, String body) {
        return McpOnDynamoDb.post(endpoint, user, session == null ? Map.of() : Map.of("mcp-session-id", session), body);
    }

    private static String initialize(McpEndpoint endpoint, String user) {
        return initialize(endpoint, user, "2025-06-18", "{\"elicitation\":{}}");
    }

    /** A new session at the given revision with the given client capabilities; its id. */
    private static String initialize(McpEndpoint endpoint, String user, String revision, String capabilities) {
        InMemoryResponseStream r = McpOnDynamoDb.initialize(endpoint, user, revision, capabilities);
        assertEquals(revision, parse(r.body()).get(0).path("result").path("protocolVersion").asText(), r.body());
        return McpOnDynamoDb.sessionId(r);
    }

    private static List<JsonNode> parse(String body) {
        return McpOnDynamoDb.messages(body);
    }

    private static final String SEARCH = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\","
            + "\"params\":{\"name\":\"search_database_schema\",\"arguments\":{\"query\":\"orders\"}}}";

    @Test
    void aQuestionAskedByOneInstanceIsAnsweredThroughAnother() throws Exception {
        McpEndpoint asking = instance(Clock.systemUTC());
        McpEndpoint answering = instance(Clock.systemUTC());
        String session = initialize(asking, "user-a");
        CompletableFuture<InMemoryResponseStream> done = CompletableFuture.supplyAsync(() -> post(asking, "user-a", session, SEARCH));
        dev.tablewright.userinput.InputRequest asked = awaitQuestion("user-a", session);
        JsonNode question = Json.object().put("id", asked.toolCallId());
        Duration lifetime = Duration.between(asked.createdAt(), asked.expiresAt());
        // the store keeps whole seconds
        assertTrue(lifetime.minus(Duration.ofHours(3)).abs().compareTo(Duration.ofSeconds(2)) < 0,
                "INPUT_REQUEST_TTL_HOURS sets the question's lifetime: " + lifetime);
        InMemoryResponseStream answer = post(answering, "user-a", session, "{\"jsonrpc\":\"2.0\",\"id\":\"" + question.path("id").asText()
                + "\",\"result\":{\"action\":\"accept\",\"content\":{\"database\":\"staging\"}}}");
        assertEquals(202, answer.statusCode(), answer.body());
        InMemoryResponseStream finished = done.get(30, java.util.concurrent.TimeUnit.SECONDS);
        List<JsonNode> messages = parse(finished.body());
        assertEquals("elicitation/create", messages.get(0).path("method").asText(), finished.body());
        assertEquals(question.path("id").asText(), messages.get(0).path("id").asText());
        JsonNode result = messages.get(messages.size() - 1).path("result");
        assertFalse(result.path("isError").asBoolean(), result.toString());
        assertTrue(result.path("content").path(0).path("text").asText().contains("staging"), result.toString());
    }

    @Test
    void aCallTheClientCancelsStopsWaitingAndSavesNothing() throws Exception {
        McpEndpoint asking = instance(Clock.systemUTC());
        McpEndpoint cancelling = instance(Clock.systemUTC());
        String session = initialize(asking, "user-c");
        CompletableFuture<InMemoryResponseStream> done = CompletableFuture.supplyAsync(() -> post(asking, "user-c", session, SEARCH));
        String requestId = awaitQuestion("user-c", session).toolCallId();
        // another call's cancellation touches nothing of this one
        assertEquals(202, post(cancelling, "user-c", session,
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":8}}").statusCode());
        assertEquals(RequestStatus.PENDING, inputRequests.find("user-c", "mcp-" + session, requestId).statusAt(Instant.now()));
        // the call's own (SEARCH is id 7), sent to another instance than the one running the call
        InMemoryResponseStream cancel = post(cancelling, "user-c", session,
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":7,\"reason\":\"user stopped\"}}");
        assertEquals(202, cancel.statusCode(), cancel.body());
        List<JsonNode> messages = parse(done.get(30, java.util.concurrent.TimeUnit.SECONDS).body());
        JsonNode result = messages.get(messages.size() - 1).path("result");
        assertTrue(result.path("isError").asBoolean(), result.toString());
        String text = result.path("content").path(0).path("text").asText();
        assertTrue(text.contains("cancelled") && !text.contains("No answer came"), "ended by the cancellation, not the wait: " + text);
        assertEquals(RequestStatus.CANCELLED, inputRequests.find("user-c", "mcp-" + session, requestId).statusAt(Instant.now()));
        assertTrue(inputRequests.knownValues("user-c", "mcp-" + session).asSessionValues().isEmpty(), "nothing saved");
    }

    /**
     * A tool whose question has a secret field: MCP's catalogue offers the bundle's tools by name, so this stand-in
     * takes the name of one (the invoker runs it; the catalogue describes the bundle's). It answers how long the
     * password it got is, never the password.
     */
    static final class NeedsAPassword implements dev.tablewright.toolcontract.Tool {
        static final dev.tablewright.toolcontract.ToolDefinition DEFINITION = new dev.tablewright.toolcontract.ToolDefinition(
                "search_database_schema", "Searches a database that needs a password.",
                Json.object().put("type", "object"),
                new dev.tablewright.toolcontract.UserInputRequirement("The database's password", List.of(new dev.tablewright.toolcontract.InputField(
                        "password", "Password", null, dev.tablewright.toolcontract.FieldType.SECRET, true, null, null, null, null, null, null)),
                        false, null),
                java.util.Set.of("tables"), dev.tablewright.toolcontract.ToolDefinition.RunsOn.FUNCTION);

        @Override
        public dev.tablewright.toolcontract.ToolDefinition definition() {
            return DEFINITION;
        }

        @Override
        public dev.tablewright.toolcontract.ToolOutcome execute(dev.tablewright.toolcontract.ToolInvocation invocation) {
            return dev.tablewright.toolcontract.ToolOutcome.ok(Json.object()
                    .put("passwordLength", invocation.arguments().path("password").asText().length()));
        }
    }

    /** The call with its database named, so the only question is the password. */
    private static final String SEARCH_PRODUCTION = "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\","
            + "\"params\":{\"name\":\"search_database_schema\",\"arguments\":{\"query\":\"orders\",\"database\":\"production\"}}}";

    private static McpEndpoint withASecretQuestion() {
        Map<String, String> withPage = bed.env();
        withPage.put("MCP_PAGE_URL", "https://page.example/");
        return McpOnDynamoDb.endpoint(withPage, Clock.systemUTC(), List.of(new NeedsAPassword()));
    }

    @Test
    void aSecretIsAskedForOnThePageNeverInTheClientsForm() throws Exception {
        McpEndpoint endpoint = withASecretQuestion();
        String session = initialize(endpoint, "user-d", "2025-11-25", "{\"elicitation\":{\"form\":{},\"url\":{}}}");
        CompletableFuture<InMemoryResponseStream> done = CompletableFuture.supplyAsync(() -> post(endpoint, "user-d", session, SEARCH_PRODUCTION));
        String requestId = awaitQuestion("user-d", session).toolCallId();
        // the client accepts (the user went to the page): that alone answers nothing
        assertEquals(202, post(endpoint, "user-d", session, "{\"jsonrpc\":\"2.0\",\"id\":\"" + requestId
                + "\",\"result\":{\"action\":\"accept\"}}").statusCode());
        assertEquals(RequestStatus.PENDING, inputRequests.find("user-d", "mcp-" + session, requestId).statusAt(Instant.now()));
        // the page's form submits the value through the input-request lifecycle, as the HTTP API's submit route does
        inputRequests.submit("user-d", "mcp-" + session, requestId, Json.object().put("password", "correct horse"), false);

        List<JsonNode> messages = parse(done.get(30, java.util.concurrent.TimeUnit.SECONDS).body());
        JsonNode question = messages.get(0);
        assertEquals("elicitation/create", question.path("method").asText(), question.toString());
        assertEquals("url", question.path("params").path("mode").asText(), question.toString());
        assertEquals(requestId, question.path("params").path("elicitationId").asText());
        assertTrue(question.path("params").path("url").asText().startsWith("https://page.example/?conversation=mcp-" + session
                + "&inputRequest=" + requestId), question.toString());
        assertFalse(question.path("params").has("requestedSchema"), "no form for a secret: " + question);
        JsonNode result = messages.get(messages.size() - 1).path("result");
        assertFalse(result.path("isError").asBoolean(), result.toString());
        String answer = result.path("content").path(0).path("text").asText();
        assertTrue(answer.contains("\"passwordLength\":13") && !answer.contains("correct horse"), "the tool got the page's value: " + answer);
    }

    @Test
    void aClientThatCannotOpenAPageIsToldWhereToEnterTheSecret() {
        McpEndpoint endpoint = withASecretQuestion();
        String session = initialize(endpoint, "user-e", "2025-11-25", "{\"elicitation\":{\"form\":{}}}");
        List<JsonNode> messages = parse(post(endpoint, "user-e", session, SEARCH_PRODUCTION).body());
        assertTrue(messages.stream().noneMatch(m -> "elicitation/create".equals(m.path("method").asText())), "no form question: " + messages);
        JsonNode result = messages.get(messages.size() - 1).path("result");
        assertTrue(result.path("isError").asBoolean(), result.toString());
        assertTrue(result.path("content").path(0).path("text").asText().contains("Enter it on the Tablewright page"), result.toString());
        assertTrue(pendingRequests("user-e", session).isEmpty(), "nothing asked");
    }

    @Test
    void anUnansweredQuestionIsWithdrawnWhenTheWaitRunsOut() {
        McpEndpoint endpoint = instance(Clock.systemUTC());
        String session = initialize(endpoint, "user-b");
        InMemoryResponseStream r = post(endpoint, "user-b", session, SEARCH);
        List<JsonNode> messages = parse(r.body());
        assertEquals("elicitation/create", messages.get(0).path("method").asText(), r.body());
        JsonNode result = messages.get(messages.size() - 1).path("result");
        assertTrue(result.path("isError").asBoolean(), result.toString());
        assertTrue(result.path("content").path(0).path("text").asText().contains("No answer came within 2 seconds"), result.toString());
        String requestId = messages.get(0).path("id").asText();
        assertEquals(RequestStatus.CANCELLED, inputRequests.find("user-b", "mcp-" + session, requestId).statusAt(Instant.now()));
        // a late answer is refused, not saved
        InMemoryResponseStream late = post(endpoint, "user-b", session, "{\"jsonrpc\":\"2.0\",\"id\":\"" + requestId
                + "\",\"result\":{\"action\":\"accept\",\"content\":{\"database\":\"staging\"}}}");
        assertEquals(202, late.statusCode());
        assertEquals(RequestStatus.CANCELLED, inputRequests.find("user-b", "mcp-" + session, requestId).statusAt(Instant.now()));
        assertTrue(inputRequests.knownValues("user-b", "mcp-" + session).asSessionValues().isEmpty(), "nothing saved");
    }

    @Test
    void anUnservedRevisionIsAnsweredWithTheNewest() {
        InMemoryResponseStream r = post(instance(Clock.systemUTC()), "user-e", null, """
                {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05",
                 "capabilities":{},"clientInfo":{"name":"old","version":"1"}}}""");
        assertEquals(200, r.statusCode(), r.body());
        assertEquals("2025-11-25", parse(r.body()).get(0).path("result").path("protocolVersion").asText(), r.body());
        InMemoryResponseStream noSession = post(instance(Clock.systemUTC()), "user-e", null,
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
        assertEquals(400, noSession.statusCode(), "no session id: " + noSession.body());
    }

    @Test
    void primingCallsNoStoreAndNoTool() {
        Map<String, String> unreachable = bed.env();
        unreachable.put("DYNAMODB_ENDPOINT", "http://127.0.0.1:9"); // nothing listens: a store call would fail
        new McpFunction(ToolAssembly.fromEnvironment(unreachable).runningToolsWith(new InProcessToolInvoker(List.of())), unreachable,
                McpOnDynamoDb.BEARER_IS_USER, Clock.systemUTC()).endpoint().prime();
    }

    @Test
    void anExpiredSessionIsUnknown() {
        MutableClock clock = new MutableClock(Instant.now());
        McpEndpoint endpoint = instance(clock);
        String session = initialize(endpoint, "user-c");
        String list = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}";
        assertEquals(200, post(endpoint, "user-c", session, list).statusCode());
        assertEquals(404, post(endpoint, "user-d", session, list).statusCode(), "another user's session");
        clock.advance(Duration.ofHours(25));
        InMemoryResponseStream expired = post(endpoint, "user-c", session, list);
        assertEquals(404, expired.statusCode(), expired.body());
    }

    /** The question a call running in the background has asked, once it is in the store (within 2 s). */
    private static dev.tablewright.userinput.InputRequest awaitQuestion(String user, String session) {
        return Poll.forValue("the call's question", Duration.ofSeconds(2), () -> pendingRequests(user, session).stream().findFirst());
    }

    private static List<dev.tablewright.userinput.InputRequest> pendingRequests(String user, String session) {
        try {
            return inputRequests.list(user, "mcp-" + session, Optional.of(RequestStatus.PENDING));
        } catch (dev.tablewright.userinput.InputRequestNotFoundException e) {
            return List.of();
        }
    }
}
