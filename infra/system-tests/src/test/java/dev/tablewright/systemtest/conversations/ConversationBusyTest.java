package dev.tablewright.systemtest.conversations;

import dev.tablewright.catalogue.ToolCatalogue;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.door.TurnStreams;
import dev.tablewright.agent.AgentLoop;
import dev.tablewright.fakes.conversations.SampleMessages;


import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.TurnLimits;
import dev.tablewright.fakes.tools.InProcessToolInvoker;
import dev.tablewright.agent.toolcall.UserInputPort;
import dev.tablewright.agent.conversation.ConversationMemory;
import dev.tablewright.http.stream.InMemoryResponseStream;
import dev.tablewright.conversation.ConversationTurn;
import dev.tablewright.dynamodb.DynamoConversationStore;
import dev.tablewright.functions.chat.ChatFunction;
import dev.tablewright.fakes.dynamodb.DynamoDbEngine;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.fakes.model.ScriptedModelServer;
import dev.tablewright.json.Json;
import dev.tablewright.openai.ModelSettings;
import dev.tablewright.openai.OpenAiChatModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A conversation that other turns keep changing while a turn loads it (here: its item points at a body that is never
 * there, as when every read races a writer) is refused as busy, a 409 with its code, not a 500: nothing is streamed,
 * the model is not asked, and nothing is written.
 */
class ConversationBusyTest {

    @RegisterExtension
    static final DynamoDbEngine ENGINE = DynamoDbEngine.dynamoDbLocal();

    @Test
    void aConversationThatKeepsChangingIsRefusedWith409() throws Exception {
        String table = ENGINE.environment().get("CONVERSATIONS_TABLE");
        DynamoConversationStore store = new DynamoConversationStore(ENGINE.client(), table, Duration.ofDays(90));
        String owner = "user-" + System.nanoTime();
        store.saveTurn(owner, "busy", new ConversationTurn(List.of(SampleMessages.user("u1", "hi")),
                Optional.empty(), "hi"), Instant.now());
        // every read now finds the conversation pointing at a body another turn has already replaced
        ENGINE.client().updateItem(b -> b.tableName(table)
                .key(Map.of("pk", AttributeValue.fromS("OWNER#" + owner), "sk", AttributeValue.fromS("CONV#busy")))
                .updateExpression("SET bodyToken = :t").expressionAttributeValues(Map.of(":t", AttributeValue.fromS("replaced"))));

        try (ScriptedModelServer model = ScriptedModelServer.start()) {
            model.enqueue(ModelScript.builder().say("never").build());
            ChatFunction chat = new ChatFunction(new AgentLoop(new OpenAiChatModel(new ModelSettings(model.baseUrl(),
                    "scripted-model", "k", Duration.ofSeconds(10))), ToolCatalogue.registry().offeredOn(ToolDefinition.Audience.AGENT), List.of(), new InProcessToolInvoker(List.of()),
                    UserInputPort.NONE, TurnLimits.DEFAULT, Clock.systemUTC()),
                    new ConversationMemory(store, null, null, Clock.systemUTC()), TurnStreams.NONE, event -> owner, Optional::empty);
            ObjectNode body = Json.object().put("id", "busy").put("trigger", "submit-message");
            ObjectNode message = body.putObject("message").put("id", "u2").put("role", "user");
            message.putArray("parts").addObject().put("type", "text").put("text", "and now?");
            ObjectNode event = Json.object().put("body", Json.write(body)).put("isBase64Encoded", false);
            event.putObject("requestContext").put("requestId", "r1");
            InMemoryResponseStream response = new InMemoryResponseStream();
            chat.handle(event, response);

            assertEquals(409, response.statusCode(), response.body());
            JsonNode error = Json.parse(response.body()).path("error");
            assertEquals("conversation_busy", error.path("code").asText(), response.body());
            assertTrue(error.path("message").asText().contains("another turn"), response.body());
            assertEquals(0, model.requests().size(), "the model is not asked");
        }
    }
}
