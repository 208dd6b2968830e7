package dev.tablewright.systemtest.faults;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.AgentLoop;
import dev.tablewright.agent.TurnLimits;
import dev.tablewright.agent.toolcall.UserInputPort;
import dev.tablewright.agent.conversation.ConversationMemory;
import dev.tablewright.door.TurnStreams;
import dev.tablewright.catalogue.ToolCatalogue;
import dev.tablewright.conversation.ConversationTurn;
import dev.tablewright.conversation.StoredMessage;
import dev.tablewright.fakes.conversations.SampleMessages;
import dev.tablewright.dynamodb.DynamoConversationStore;
import dev.tablewright.dynamodb.DynamoDbClients;
import dev.tablewright.dynamodb.DynamoTurnStreamLog;
import dev.tablewright.fakes.dynamodb.DynamoDbEngine;
import dev.tablewright.fakes.dynamodb.FaultyDynamoDbProxy;
import dev.tablewright.fakes.dynamodb.FaultyDynamoDbProxy.Fault;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.fakes.model.ScriptedModelServer;
import dev.tablewright.fakes.stream.UiMessageStreamReader;
import dev.tablewright.fakes.tools.InProcessToolInvoker;
import dev.tablewright.functions.chat.ChatFunction;
import dev.tablewright.http.stream.InMemoryResponseStream;
import dev.tablewright.json.Json;
import dev.tablewright.openai.ModelSettings;
import dev.tablewright.openai.OpenAiChatModel;
import dev.tablewright.toolcontract.ToolDefinition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A chat turn whose storage fails under it, through {@link FaultyDynamoDbProxy} in front of DynamoDB Local: the turn's
 * own save with its answer lost is stored once; a save refused past the SDK's retries (a 500 burst) ends the stream
 * with an error part saying storage is busy and {@code [DONE]}, releases the running-turn marker, keeps the user's
 * message to resend, and the next message works.
 */
class ChatTurnStorageFaultTest {

    @RegisterExtension
    static final DynamoDbEngine ENGINE = DynamoDbEngine.dynamoDbLocal();

    static ScriptedModelServer model;
    static FaultyDynamoDbProxy proxy;
    static DynamoConversationStore stored;
    static DynamoTurnStreamLog streamLog;
    static ChatFunction chat;
    static final String OWNER = "user-storage-faults";
    /** What tells the turn's final put of the conversation from its start's: only the end stores the agent's memory. */
    static final String TURN_END = "\"memory\":";

    @BeforeAll
    static void start() throws Exception {
        model = ScriptedModelServer.start();
        proxy = new FaultyDynamoDbProxy(ENGINE.endpoint());
        String conversations = ENGINE.environment().get("CONVERSATIONS_TABLE");
        stored = new DynamoConversationStore(ENGINE.client(), conversations, Duration.ofDays(90));
        streamLog = new DynamoTurnStreamLog(ENGINE.client(), ENGINE.environment().get("TURN_STREAMS_TABLE"), Duration.ofHours(1));
        DynamoConversationStore viaProxy = new DynamoConversationStore(
                DynamoDbClients.forEndpoint(proxy.endpoint(), ImpatientDynamoDb.SETTINGS), conversations, Duration.ofDays(90));
        chat = new ChatFunction(new AgentLoop(new OpenAiChatModel(new ModelSettings(model.baseUrl(),
                "scripted-model", "k", Duration.ofSeconds(10))), ToolCatalogue.registry().offeredOn(ToolDefinition.Audience.AGENT),
                List.of(), new InProcessToolInvoker(List.of()), UserInputPort.NONE, TurnLimits.DEFAULT, Clock.systemUTC()),
                new ConversationMemory(viaProxy, null, null, Clock.systemUTC()),
                new TurnStreams(streamLog, TurnStreams.Settings.defaults(Duration.ofMinutes(2)), Clock.systemUTC()),
                event -> OWNER, Optional::empty);
    }

    @AfterAll
    static void stop() {
        proxy.close();
        model.close();
    }

    @BeforeEach
    void heal() {
        proxy.heal();
    }

    private static InMemoryResponseStream send(String conversation, String messageId, String text) {
        ObjectNode body = Json.object().put("id", conversation).put("trigger", "submit-message");
        ObjectNode message = body.putObject("message").put("id", messageId).put("role", "user");
        message.putArray("parts").addObject().put("type", "text").put("text", text);
        ObjectNode event = Json.object().put("body", Json.write(body)).put("isBase64Encoded", false);
        event.putObject("requestContext").put("requestId", "r-" + messageId);
        InMemoryResponseStream response = new InMemoryResponseStream();
        chat.handle(event, response);
        return response;
    }

    private static List<String> storedIds(String conversation) {
        return stored.find(OWNER, conversation).orElseThrow().messages().stream().map(StoredMessage::id).toList();
    }

    private static String table() {
        return ENGINE.environment().get("CONVERSATIONS_TABLE");
    }

    @Test
    void aTurnWhoseSaveLostItsAnswerIsStoredOnce() {
        String conversation = "lost-" + System.nanoTime();
        model.enqueue(ModelScript.builder().say("Stored once.").build());
        // the conversation item's put at the turn's end (the one that carries the agent's memory): its answer is lost
        int faultedBefore = proxy.faultedCalls("PutItem");
        proxy.fail("PutItem", table(), TURN_END, Fault.LOSE_ANSWER, 1);
        InMemoryResponseStream response = send(conversation, "u1", "hello");
        assertEquals(200, response.statusCode(), response.body());
        assertTrue(UiMessageStreamReader.parse(response.body()).done(), response.body());
        assertTrue(!response.body().contains("\"type\":\"error\""), response.body());
        assertEquals(faultedBefore + 1, proxy.faultedCalls("PutItem"));
        assertEquals(2, storedIds(conversation).size(), "the question and its answer, once: " + storedIds(conversation));
        assertTrue(streamLog.active(OWNER, conversation).isEmpty(), "the marker is released");
    }

    /** The conversation cannot be read past the retries before the turn starts: a 503 with Retry-After and the error JSON. */
    @Test
    void aConversationThatCannotBeReadIsA503BeforeTheStream() throws Exception {
        proxy.fail("GetItem", table(), Fault.INTERNAL_ERROR, FaultyDynamoDbProxy.ALWAYS);
        InMemoryResponseStream refused = send("unreadable-" + System.nanoTime(), "u1", "hello");
        assertEquals(503, refused.statusCode(), refused.body());
        assertTrue(refused.headers().keySet().stream().anyMatch(h -> h.equalsIgnoreCase("retry-after")), refused.headers().toString());
        assertEquals("unavailable", Json.parse(refused.body()).path("error").path("code").asText(), refused.body());
    }

    /** Storage slowed to a second per call (each under the client's socket timeout): the turn finishes and is stored. */
    @Test
    void aTurnOnSlowStorageFinishesAndIsStored() {
        String conversation = "slow-" + System.nanoTime();
        model.enqueue(ModelScript.builder().say("Slowly stored.").build());
        proxy.delay("*", table(), Duration.ofSeconds(1), 6);
        InMemoryResponseStream response = send(conversation, "u1", "hello");
        assertEquals(200, response.statusCode(), response.body());
        assertTrue(!response.body().contains("\"type\":\"error\""), response.body());
        assertTrue(UiMessageStreamReader.parse(response.body()).done(), response.body());
        assertEquals(2, storedIds(conversation).size(), storedIds(conversation).toString());
        assertTrue(streamLog.active(OWNER, conversation).isEmpty());
    }

    /**
     * A chat process killed mid-turn, after it stored the user's message and opened its marker and before it saved the
     * conversation: the next message on the conversation works at once, and its turn clears the marker.
     */
    @Test
    void aTurnKilledMidwayLeavesNothingStuck() {
        String conversation = "killed-" + System.nanoTime();
        stored.saveTurn(OWNER, conversation, new ConversationTurn(List.of(SampleMessages.user("u1", "hello")),
                Optional.empty(), "hello"), Instant.now());
        streamLog.open(OWNER, conversation, "str_killed", Instant.now());
        model.enqueue(ModelScript.builder().say("Back again.").build());
        InMemoryResponseStream next = send(conversation, "u2", "are you there?");
        assertEquals(200, next.statusCode(), next.body());
        assertTrue(!next.body().contains("\"type\":\"error\""), next.body());
        assertTrue(UiMessageStreamReader.parse(next.body()).done(), next.body());
        assertEquals(3, storedIds(conversation).size(), "the first question, the next and its answer: " + storedIds(conversation));
        assertTrue(streamLog.active(OWNER, conversation).isEmpty(), "the dead turn's marker is gone with the next turn's");
    }

    @Test
    void aTurnThatCannotBeStoredEndsItsStreamWithAnErrorReleasesItsMarkerAndTheNextMessageWorks() {
        String conversation = "burst-" + System.nanoTime();
        model.enqueue(ModelScript.builder().say("This answer is not kept.").build());
        // the turn's start stores the user's message; its end meets a 500 burst longer than the retries
        proxy.fail("PutItem", table(), TURN_END, Fault.INTERNAL_ERROR, FaultyDynamoDbProxy.ALWAYS);
        InMemoryResponseStream refused = send(conversation, "u1", "hello");
        assertEquals(200, refused.statusCode(), refused.body());
        String body = refused.body();
        assertTrue(body.contains("\"type\":\"error\"") && body.contains("Storage is busy"), body);
        assertTrue(UiMessageStreamReader.parse(body).done(), body);
        assertTrue(streamLog.active(OWNER, conversation).isEmpty(), "the running-turn marker is released");
        assertEquals(List.of("u1"), storedIds(conversation), "nothing half-saved: the user's message, to send again");

        proxy.heal();
        model.enqueue(ModelScript.builder().say("Kept now.").build());
        InMemoryResponseStream next = send(conversation, "u1", "hello");
        assertEquals(200, next.statusCode(), next.body());
        assertTrue(!next.body().contains("\"type\":\"error\""), next.body());
        assertEquals(2, storedIds(conversation).size(), "the message sent again and its answer: " + storedIds(conversation));
    }
}
