package dev.tablewright.systemtest.faults;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.conversation.StoredMessage;
import dev.tablewright.dynamodb.DynamoConversationStore;
import dev.tablewright.dynamodb.DynamoPreviewStore;
import dev.tablewright.dynamodb.DynamoTurnStreamLog;
import dev.tablewright.fakes.concurrent.Poll;
import dev.tablewright.fakes.configs.SampleConfigs;
import dev.tablewright.fakes.dynamodb.DynamoDbEngine;
import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.fakes.model.ScriptedModelServer;
import dev.tablewright.fakes.net.SeverableTcpProxy;
import dev.tablewright.fakes.runtime.Chunk;
import dev.tablewright.fakes.runtime.FunctionProcess;
import dev.tablewright.fakes.runtime.FunctionSpec;
import dev.tablewright.fakes.runtime.HttpIntegrationResponse;
import dev.tablewright.fakes.runtime.Invocation;
import dev.tablewright.fakes.runtime.InvocationResult;
import dev.tablewright.fakes.runtime.RuntimeApiEmulator;
import dev.tablewright.fakes.stream.UiMessageStreamReader;
import dev.tablewright.functions.tools.ApplyColumnChangeFunction;
import dev.tablewright.json.Json;
import dev.tablewright.lambda.ToolFunction;
import dev.tablewright.localstack.local.ApiGatewayEvents;
import dev.tablewright.postgres.DatabaseUrl;
import dev.tablewright.postgres.PostgresDatabases;
import dev.tablewright.systemtest.chat.LoopbackLambdaApi;
import dev.tablewright.systemtest.database.DatabaseTestSupport;
import dev.tablewright.tools.PreviewTableConfigTool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A chat turn whose parts fail under it, for real: the chat function's jar runs as Lambda runs it (its own JVM,
 * through the Runtime API emulator), its tools run behind a loopback Lambda {@code Invoke} API (the real tool
 * handlers, the preview tool on the sample database in PostgreSQL and DynamoDB Local), the scripted model holds the
 * turn where the test wants it on a latch.
 * <ul>
 *   <li>The process killed (SIGKILL: no finally block, no marker cleared) mid-answer, after the preview tool saved its
 *       preview: the client sees its stream cut; a fresh process serves the same message sent again, at once, within
 *       the dead turn's marker's life, and the next one; the stored history is whole (each message once, with its
 *       answer, nothing of the killed turn's unsaved answer), one preview, the conversation not busy.</li>
 *   <li>The tools' PostgreSQL backend terminated (pg_terminate_backend, from another connection) between two tool
 *       calls of one turn: the second call reopens the connection and answers, the turn ends with {@code [DONE]},
 *       and the next turn works.</li>
 *   <li>The network to PostgreSQL cut between two tool calls (its connection and any new one): the second call is a
 *       tool error {@code unavailable} the model is told and explains, the turn ends with {@code [DONE]}; once the
 *       network is back the next turn's call reopens the connection and works.</li>
 * </ul>
 * One model, identity and tool API for the class; each test starts its emulator and the processes it needs.
 */
class ChatProcessFaultsTest {

    @RegisterExtension
    static final DynamoDbEngine ENGINE = DynamoDbEngine.dynamoDbLocal();

    static final String PREVIEW_FUNCTION = "tablewright-PreviewTableConfig-faults";
    static final String COLUMNS_FUNCTION = "tablewright-ApplyColumnChange-faults";
    /** The tools' connections' name in pg_stat_activity: this JVM's own, so no other build's backend is terminated. */
    static final String APPLICATION = "tablewright-chat-faults-" + ProcessHandle.current().pid();

    /** Each test's own: a closed process's long poll of /next, still held by an emulator, would take the next event. */
    RuntimeApiEmulator emulator;
    static ScriptedModelServer model;
    static DevIssuer.Standalone identity;
    static DatabaseUrl url;
    static SeverableTcpProxy database;
    static PostgresDatabases databases;
    static LoopbackLambdaApi lambdaApi;
    static DynamoConversationStore conversations;
    static DynamoTurnStreamLog streamLog;

    @BeforeAll
    static void start() throws Exception {
        model = ScriptedModelServer.start();
        identity = DevIssuer.startStandalone();
        Properties props = new Properties();
        props.setProperty("ApplicationName", APPLICATION);
        url = DatabaseTestSupport.database();
        // the tools reach PostgreSQL through a proxy the test can cut, as a failover or a dropped link would
        java.net.URI server = java.net.URI.create(url.jdbcUrl().substring("jdbc:".length()));
        database = SeverableTcpProxy.to(server.getHost(), server.getPort() < 0 ? 5432 : server.getPort());
        DatabaseUrl viaProxy = new DatabaseUrl(url.jdbcUrl().replaceFirst("//[^/?]+", "//127.0.0.1:" + database.port()), url.user(), url.password());
        databases = new PostgresDatabases(Map.of("default", () -> viaProxy.connect(props)), List.of("core", "inventory", "sales", "analytics"),
                Duration.ofSeconds(5), Duration.ofSeconds(60));
        PreviewTableConfigTool preview = new PreviewTableConfigTool(databases,
                new DynamoPreviewStore(ENGINE.client(), ENGINE.tables().tableName("PreviewsTable")),
                (owner, id) -> Optional.empty(), Clock.systemUTC(), 5, Duration.ofHours(1));
        // the tools' own handlers, as their functions run them: the chat invokes them by name over Lambda's Invoke API
        lambdaApi = LoopbackLambdaApi.start(Map.of(COLUMNS_FUNCTION, new ApplyColumnChangeFunction(null),
                PREVIEW_FUNCTION, new ToolFunction(preview) { }));
        conversations = new DynamoConversationStore(ENGINE.client(), ENGINE.environment().get("CONVERSATIONS_TABLE"), Duration.ofDays(90));
        streamLog = new DynamoTurnStreamLog(ENGINE.client(), ENGINE.environment().get("TURN_STREAMS_TABLE"), Duration.ofHours(1));
    }

    @AfterAll
    static void stop() {
        if (lambdaApi != null) {
            lambdaApi.close();
        }
        if (databases != null) {
            databases.close();
        }
        if (database != null) {
            database.close();
        }
        model.close();
        identity.close();
    }

    @BeforeEach
    void startEmulator() throws Exception {
        emulator = RuntimeApiEmulator.start("ChatTurnFunction");
    }

    @AfterEach
    void closeEmulator() {
        emulator.close();
    }

    private static Map<String, String> environment() {
        Map<String, String> env = new HashMap<>(ENGINE.environment()); // the template's tables on DynamoDB Local
        env.putAll(Map.of("OPENAI_BASE_URL", model.baseUrl(), "OPENAI_API_KEY", "sk-local-not-a-secret", "OPENAI_MODEL", "scripted-model",
                "AUTH_ISSUER", identity.issuer().issuer(), "AUTH_AUDIENCE", identity.issuer().audience(),
                "AUTH_JWKS_URL", identity.issuer().jwksUrl(), "AWS_ACCESS_KEY_ID", "local", "AWS_SECRET_ACCESS_KEY", "local"));
        // the SDK's own setting for a service's endpoint: the function's Lambda client reaches the loopback Invoke API
        env.put("AWS_ENDPOINT_URL_LAMBDA", lambdaApi.endpoint().toString());
        env.put("TOOL_FUNCTION_APPLY_COLUMN_CHANGE", COLUMNS_FUNCTION);
        env.put("TOOL_FUNCTION_PREVIEW_TABLE_CONFIG", PREVIEW_FUNCTION);
        return env;
    }

    private FunctionProcess startChat() throws Exception {
        FunctionSpec spec = FunctionSpec.fromTemplate("ChatTurnFunction");
        assumeTrue(spec.artifactExists(), "the chat function's jar is not built (mvn package): " + spec.artifact());
        return FunctionProcess.start(spec, emulator, environment());
    }

    /** A message of a stored conversation (the chat loads the rest), from the signed-in user, as a function URL event. */
    private Invocation send(String conversation, String messageId, String text) {
        ObjectNode body = Json.object().put("id", conversation).put("trigger", "submit-message");
        ObjectNode message = body.putObject("message").put("id", messageId).put("role", "user");
        message.putArray("parts").addObject().put("type", "text").put("text", text);
        Map<String, String> headers = Map.of("content-type", "application/json", "host", "abc.lambda-url.us-east-1.on.aws",
                "authorization", "Bearer " + identity.issuer().mint(DevIssuer.DEV_USER));
        return emulator.invoke(Json.write(ApiGatewayEvents.functionUrl("POST", "/", headers, Json.write(body))));
    }

    /** Reads the streamed answer as it arrives until {@code needle} has come; what arrived so far. */
    private static String awaitStreamed(Invocation invocation, FunctionProcess chat, String needle) throws InterruptedException {
        StringBuilder seen = new StringBuilder();
        while (!seen.toString().contains(needle)) {
            Chunk chunk = null;
            for (int waited = 0; chunk == null && waited < 60 && !invocation.isDone(); waited++) {
                chunk = invocation.nextChunk(Duration.ofSeconds(1));
            }
            if (chunk == null) {
                throw new AssertionError("never streamed " + needle + "; seen: " + seen + "\nfunction output:\n" + chat.output());
            }
            seen.append(chunk.text());
        }
        return seen.toString();
    }

    private static List<Map<String, AttributeValue>> previewsOf(String conversation) {
        return ENGINE.client().scan(b -> b.tableName(ENGINE.tables().tableName("PreviewsTable")).consistentRead(true)).items().stream()
                .filter(i -> i.containsKey("conversationId") && i.get("conversationId").s().equals(conversation)).toList();
    }

    private static List<StoredMessage> stored(String conversation) {
        return conversations.find(DevIssuer.DEV_USER, conversation).orElseThrow().messages();
    }

    @Test
    void aChatProcessKilledAfterAToolsWriteLeavesAConversationTheNextMessageContinues() throws Exception {
        String conversation = "killed-" + System.nanoTime();
        model.enqueue(ModelScript.builder()
                .turn(t -> t.toolCall("call_cols", "apply_column_change", SampleConfigs.STOCK_COLUMNS_CHANGE.formatted(System.nanoTime())))
                .turn(t -> t.toolCall("call_prev", "preview_table_config", "{\"description\": \"Stock levels\"}"))
                .turn(t -> t.text("Here is the preview").waitFor("killed-turn-never-released").text(" of your stock levels."))
                .build());
        FunctionProcess first = startChat();
        Invocation killed;
        try {
            killed = send(conversation, "u1", "Stock levels please");
            String streamed = awaitStreamed(killed, first, "Here is the preview");
            assertTrue(streamed.contains("\"type\":\"data-table-config-preview\""), "the preview was shown before the kill: " + streamed);
            assertEquals(1, previewsOf(conversation).size(), "the preview tool's write is done");
            assertEquals(List.of("u1"), stored(conversation).stream().map(StoredMessage::id).toList(), "the turn's start is stored");
            assertTrue(streamLog.active(DevIssuer.DEV_USER, conversation).isPresent(), "the turn is running, its marker open");

            first.kill(); // mid-answer, the model held on its latch: nothing of the process runs on
        } finally {
            first.close();
        }
        InvocationResult cut = killed.await(Duration.ofSeconds(30));
        assertEquals(RuntimeApiEmulator.EXIT_ERROR, cut.errorType(), "the invocation failed with its runtime");
        assertFalse(cut.bodyText().contains("[DONE]"), "the client saw the stream cut: " + cut.bodyText());
        assertTrue(streamLog.active(DevIssuer.DEV_USER, conversation).isPresent(), "the dead turn left its marker");

        // a fresh instance. The client saw its stream cut and sends the same message again (its id too), while the
        // dead turn's marker still stands; then the conversation goes on
        model.enqueue(ModelScript.builder().say("Back again: the preview is still there to accept.").say("Still here.").build());
        FunctionProcess second = startChat();
        try {
            UiMessageStreamReader.Parsed resent = answered(second.await(send(conversation, "u1", "Stock levels please"),
                    Duration.ofSeconds(60)), second);
            assertTrue(resent.parts().toString().contains("Back again"), resent.parts().toString());
            List<StoredMessage> afterResend = stored(conversation);
            assertEquals(List.of("user", "assistant"), afterResend.stream().map(StoredMessage::role).toList(),
                    "the message sent again is stored once, with its answer: " + afterResend);
            assertTrue(afterResend.getLast().json().contains("Back again") && !afterResend.getLast().json().contains("Here is the preview"),
                    "nothing of the killed turn's unsaved answer: " + afterResend.getLast().json());

            UiMessageStreamReader.Parsed next = answered(second.await(send(conversation, "u2", "are you there?"), Duration.ofSeconds(60)), second);
            assertTrue(next.parts().toString().contains("Still here."), next.parts().toString());
            String asked = model.lastRequest().messages().toString();
            assertTrue(asked.contains("Stock levels please") && asked.contains("Back again") && asked.contains("are you there?"),
                    "the model was asked with the stored history and the next message: " + asked);
            List<StoredMessage> history = stored(conversation);
            assertEquals(List.of("u1", "u2"), history.stream().filter(m -> m.role().equals("user")).map(StoredMessage::id).toList());
            assertEquals(List.of("user", "assistant", "user", "assistant"), history.stream().map(StoredMessage::role).toList());
            assertEquals(1, previewsOf(conversation).size(), "the killed turn's preview, once");
            // the recording (and the marker, the next turn's in place of the dead one's) ends after the stream does
            Poll.until("the running-turn marker is gone", Duration.ofSeconds(20),
                    () -> streamLog.active(DevIssuer.DEV_USER, conversation).isEmpty());
            assertTrue(conversations.rename(DevIssuer.DEV_USER, conversation, "Stock levels", java.time.Instant.now()),
                    "the conversation is not busy");
        } finally {
            second.close();
        }
    }

    /** Terminates the tools' PostgreSQL backends from another connection; how many there were. */
    private static int terminateTheToolsBackends() throws java.sql.SQLException {
        try (java.sql.Connection c = url.connect(); java.sql.Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery("SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                     + "WHERE application_name = '" + APPLICATION + "' AND pid <> pg_backend_pid()) t")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static UiMessageStreamReader.Parsed answered(InvocationResult result, FunctionProcess chat) throws java.io.IOException {
        assertTrue(result.succeeded(), () -> result.errorBody() + "\n" + chat.output());
        HttpIntegrationResponse http = HttpIntegrationResponse.parse(result.body());
        assertEquals(200, http.statusCode(), http.bodyText());
        UiMessageStreamReader.Parsed parts = UiMessageStreamReader.parse(http.bodyText());
        assertTrue(parts.done(), "ends with [DONE]: " + http.bodyText());
        assertTrue(parts.ofType("error").isEmpty(), http.bodyText());
        return parts;
    }

    @Test
    void aPostgresBackendTerminatedBetweenTwoToolCallsOfATurnIsReopenedAndTheTurnAndTheNextEndCleanly() throws Exception {
        String conversation = "terminated-" + System.nanoTime();
        int asked = model.requests().size();
        model.enqueue(ModelScript.builder()
                .turn(t -> t.toolCall("call_cols", "apply_column_change", SampleConfigs.STOCK_COLUMNS_CHANGE.formatted(System.nanoTime())))
                .turn(t -> t.toolCall("call_prev_1", "preview_table_config", "{\"description\": \"Stock levels\"}"))
                .turn(t -> t.waitFor("backend-terminated").toolCall("call_prev_2", "preview_table_config", "{\"description\": \"Stock levels again\"}"))
                .say("Both previews are ready.")
                .say("Still here.")
                .build());
        FunctionProcess chat = startChat();
        try {
            Invocation turn = send(conversation, "u1", "Stock levels please");
            // the model is asked for the third time once the first preview answered: its connection is open, idle
            model.awaitRequests(asked + 3, Duration.ofSeconds(60));
            assertTrue(terminateTheToolsBackends() >= 1, "the tools' backend was terminated");
            model.release("backend-terminated");

            UiMessageStreamReader.Parsed parts = answered(chat.await(turn, Duration.ofSeconds(60)), chat);
            List<com.fasterxml.jackson.databind.JsonNode> previews = parts.ofType("data-table-config-preview");
            assertEquals(2, previews.size(), "both calls answered a preview: " + parts.parts());
            assertTrue(parts.ofType("tool-output-error").isEmpty(), "no call failed: " + parts.parts());
            com.fasterxml.jackson.databind.JsonNode second = parts.ofType("tool-output-available").stream()
                    .filter(p -> p.path("toolCallId").asText().equals("call_prev_2")).findFirst()
                    .orElseThrow(() -> new AssertionError(parts.parts().toString())).path("output");
            assertTrue(second.path("valid").asBoolean() && second.path("previewId").asText().startsWith("prv_"),
                    "the call after the termination ran its query on a reopened connection: " + second);
            assertEquals(2, previewsOf(conversation).size(), "one preview per preview call");
            StringBuilder said = new StringBuilder();
            parts.ofType("text-delta").forEach(p -> said.append(p.path("delta").asText()));
            assertEquals("Both previews are ready.", said.toString());

            UiMessageStreamReader.Parsed next = answered(chat.await(send(conversation, "u2", "thanks"), Duration.ofSeconds(60)), chat);
            assertTrue(next.parts().toString().contains("Still here."), next.parts().toString());
            assertEquals(List.of("u1", "u2"), stored(conversation).stream().filter(m -> m.role().equals("user")).map(StoredMessage::id).toList());
            assertEquals(2, stored(conversation).stream().filter(m -> m.role().equals("assistant")).count());
        } finally {
            chat.close();
        }
    }

    @Test
    void theDatabaseCutOffBetweenTwoToolCallsIsAToolErrorTheModelExplainsAndTheNextTurnWorks() throws Exception {
        String conversation = "cut-off-" + System.nanoTime();
        int asked = model.requests().size();
        String explained = "The database cannot be reached right now; please try again in a moment.";
        model.enqueue(ModelScript.builder()
                .turn(t -> t.toolCall("call_cols", "apply_column_change", SampleConfigs.STOCK_COLUMNS_CHANGE.formatted(System.nanoTime())))
                .turn(t -> t.toolCall("call_prev_1", "preview_table_config", "{\"description\": \"Stock levels\"}"))
                .turn(t -> t.waitFor("database-cut-off").toolCall("call_prev_2", "preview_table_config", "{\"description\": \"Stock levels again\"}"))
                .say(explained)
                .turn(t -> t.toolCall("call_prev_3", "preview_table_config", "{\"description\": \"Stock levels, now\"}"))
                .say("Here it is.")
                .build());
        FunctionProcess chat = startChat();
        try {
            Invocation turn = send(conversation, "u1", "Stock levels please");
            model.awaitRequests(asked + 3, Duration.ofSeconds(60));
            database.sever();
            model.release("database-cut-off");

            UiMessageStreamReader.Parsed parts = answered(chat.await(turn, Duration.ofSeconds(60)), chat);
            String failed = parts.parts().stream().filter(p -> p.path("toolCallId").asText().equals("call_prev_2")
                    && p.path("type").asText().startsWith("tool-output")).findFirst()
                    .orElseThrow(() -> new AssertionError(parts.parts().toString())).toString();
            assertTrue(failed.contains("unavailable"), "the call is a tool error unavailable: " + failed);
            assertTrue(database.refusedConnections() >= 1, "the call tried to reopen its connection");
            String told = model.requests().get(asked + 3).messages().toString();
            assertTrue(told.contains("unavailable"), "the model is told why: " + told);
            StringBuilder said = new StringBuilder();
            parts.ofType("text-delta").forEach(p -> said.append(p.path("delta").asText()));
            assertEquals(explained, said.toString());
            assertEquals(1, previewsOf(conversation).size(), "nothing saved by the failed call");

            database.restore();
            UiMessageStreamReader.Parsed next = answered(chat.await(send(conversation, "u2", "try again"), Duration.ofSeconds(60)), chat);
            com.fasterxml.jackson.databind.JsonNode third = next.ofType("tool-output-available").stream()
                    .filter(p -> p.path("toolCallId").asText().equals("call_prev_3")).findFirst()
                    .orElseThrow(() -> new AssertionError(next.parts().toString())).path("output");
            assertTrue(third.path("valid").asBoolean() && third.path("previewId").asText().startsWith("prv_"), third.toString());
            assertEquals(2, previewsOf(conversation).size());
            assertEquals(List.of("u1", "u2"), stored(conversation).stream().filter(m -> m.role().equals("user")).map(StoredMessage::id).toList());
        } finally {
            database.restore();
            chat.close();
        }
    }
}
