package dev.tablewright.systemtest.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.bedrock.BedrockChatModel;
import dev.tablewright.bedrock.BedrockSettings;
import dev.tablewright.fakes.model.BedrockModelServer;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.Tool;
import dev.tablewright.tools.ApplyColumnChangeTool;
import dev.tablewright.tools.ApplyJoinChangeTool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static dev.tablewright.systemtest.chat.ChatTurnEndToEndTest.STATE;
import static dev.tablewright.systemtest.chat.ChatTurnTest.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The chat turn on Amazon Bedrock, end to end through the chat function: the Bedrock model against the stand-in
 * (event-stream framing, signatures checked, every request held to Bedrock's rules), the tools for real (the sample
 * database on PostgreSQL, previews on DynamoDB Local). The same scripts also run on the OpenAI-compatible server,
 * and the two UI streams must be the same: the client cannot tell which provider answered.
 */
class BedrockChatTurnTest {

    static final String ACCESS_KEY = "AKIDSTANDIN0000000000";
    static final String SECRET_KEY = "stand-in-secret-key-not-a-real-one";
    static final String MODEL_ID = "eu.amazon.nova-pro-v1:0";

    ChatHarness chat;
    BedrockModelServer bedrock;
    SampleDatabaseTools database;

    @BeforeEach
    void start() throws Exception {
        database = SampleDatabaseTools.create("chat-bedrock-");
        List<Tool> tools = List.of(new ApplyColumnChangeTool(), new ApplyJoinChangeTool(), database.search(), database.preview());
        chat = new ChatHarness(tools);
        bedrock = BedrockModelServer.start().verifySignatures(ACCESS_KEY, SECRET_KEY);
    }

    @AfterEach
    void stop() {
        chat.close();
        bedrock.close();
        database.close();
    }

    /** The turn on Bedrock: the function wired as in production, the model pointed at the stand-in. */
    ChatHarness.Turn onBedrock(ModelScript script, String body) {
        bedrock.enqueue(script);
        chat.chatModel = () -> new BedrockChatModel(new BedrockSettings(URI.create(bedrock.endpoint()), "eu-west-1", MODEL_ID,
                Duration.ofSeconds(10)), StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)));
        return chat.send(body);
    }

    ChatHarness.Turn onOpenAi(ModelScript script, String body) {
        chat.model.enqueue(script);
        return chat.send(body);
    }

    static String body(String text, List<JsonNode> earlier) {
        ObjectNode body = Json.object().put("id", "conv_bedrock").put("trigger", "submit-message");
        ArrayNode messages = body.putArray("messages");
        earlier.forEach(messages::add);
        messages.addObject().put("id", "u_" + messages.size()).put("role", "user").putArray("parts").addObject()
                .put("type", "text").put("text", text);
        body.putObject("context").put("page", "tables").put("configId", "cfg_stock").set("state", parse(STATE));
        return Json.write(body);
    }

    static ModelScript twoTools() {
        return script(b -> b
                .turn(t -> t.text("Adding the item name, then a preview.")
                        .toolCall("tooluse_col", "apply_column_change", "{\"operation\":\"add\",",
                                "\"columns\":[{\"name\":\"last_counted_at\",\"pg_type\":\"timestamp without time zone\"}]}")
                        .toolCall("tooluse_prev", "preview_table_config", "{\"description\":\"Stock levels with last_counted_at\"}")
                        .usage(1500, 80))
                .turn(t -> t.text("Here is the preview with last_counted_at.").usage(1700, 12)));
    }

    static ModelScript script(Consumer<ModelScript.Builder> turns) {
        ModelScript.Builder builder = ModelScript.builder();
        turns.accept(builder);
        return builder.build();
    }

    @Test
    void aTextTurnStreamsTheSameUiMessageAsOnOpenAiWithBedrocksUsage() throws Exception {
        ModelScript text = script(b -> b.turn(t -> t.text("Stock levels ", "list each item's ").delay(5).text("quantity.").usage(812, 9)));
        ChatHarness.Turn openAi = onOpenAi(text, body("what does this table show?", List.of()));
        ChatHarness.Turn turn = onBedrock(text, body("what does this table show?", List.of()));

        assertEquals(openAi.types(), turn.types(), "the UI stream does not depend on the provider");
        assertEquals("Stock levels list each item's quantity.", turn.text());
        assertEquals(3, turn.stream().ofType("text-delta").size(), "deltas arrive as Bedrock sends them");
        JsonNode usage = turn.first("finish").path("messageMetadata").path("usage");
        assertEquals(812, usage.path("inputTokens").asInt(), turn.first("finish").toString());
        assertEquals(9, usage.path("outputTokens").asInt());
        assertEquals("stop", turn.first("finish").path("finishReason").asText());
        assertEquals(List.of(), bedrock.violations());
        assertTrue(bedrock.requests().getFirst().body().path("system").path(0).path("text").asText()
                .contains("Base table: inventory.stock_levels"), "the prompt is the system block");
    }

    @Test
    void aTwoToolTurnRunsBothToolsAndEndsInAPreviewAsOnOpenAi() throws Exception {
        ChatHarness.Turn openAi = onOpenAi(twoTools(), body("add last_counted_at and show me", List.of()));
        ChatHarness.Turn turn = onBedrock(twoTools(), body("add last_counted_at and show me", List.of()));

        assertEquals(openAi.types(), turn.types(), "the UI stream does not depend on the provider");
        assertEquals(2, bedrock.requests().size());
        assertEquals(List.of(), bedrock.violations());
        JsonNode second = bedrock.requests().get(1).body().path("messages");
        JsonNode results = second.get(second.size() - 1).path("content");
        assertEquals("tooluse_col", results.path(0).path("toolResult").path("toolUseId").asText(), "both results, in the next message");
        assertEquals("tooluse_prev", results.path(1).path("toolResult").path("toolUseId").asText());
        assertTrue(results.path(0).path("toolResult").path("content").path(0).path("json").path("valid").asBoolean(), results.toString());

        assertFalse(turn.stream().ofType("data-table-config-preview").isEmpty(), turn.stream().ofType("tool-output-available").toString());
        JsonNode preview = turn.first("data-table-config-preview").path("data");
        assertFalse(preview.path("previewId").asText().isEmpty());
        assertEquals("Stock levels with last_counted_at", preview.path("description").asText());
        assertEquals(3200, turn.first("finish").path("messageMetadata").path("usage").path("inputTokens").asInt(), "both steps' usage");
        assertEquals("stop", turn.first("finish").path("finishReason").asText());

        JsonNode message = AiSdkClient.read(turn.response().body(), null).path("message");
        assertEquals("output-available", AiSdkClientTest.parts(message, "tool-apply_column_change").get(0).path("state").asText());
        assertEquals("output-available", AiSdkClientTest.parts(message, "tool-preview_table_config").get(0).path("state").asText());
    }

    /**
     * The next turn of that conversation, as useChat sends it (the assistant message the AI SDK built, then a new
     * user message), and one more: every request is one Bedrock accepts.
     */
    @Test
    void aStoredMultiTurnConversationStaysValidForBedrock() throws Exception {
        ChatHarness.Turn first = onBedrock(twoTools(), body("add last_counted_at and show me", List.of()));
        JsonNode user = parse("{\"id\":\"u_0\",\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"text\":\"add last_counted_at and show me\"}]}");
        JsonNode assistant = AiSdkClient.read(first.response().body(), null).path("message");
        List<JsonNode> history = new ArrayList<>(List.of(user, assistant));
        ChatHarness.Turn second = onBedrock(script(b -> b
                        .turn(t -> t.toolCall("tooluse_join", "apply_join_change", "{\"operation\":\"add\",\"join\":{\"table\":\"warehouses\",",
                                "\"schema\":\"core\",\"join_type\":\"LEFT\",\"relationship_from\":\"stock_levels.warehouse_id\",",
                                "\"relationship_to\":\"warehouses.id\",\"columns_to_add\":[\"name\"]}}"))
                        .say("Joined the warehouses.")),
                body("also the warehouse name", history));
        history.add(parse("{\"id\":\"u_2\",\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"text\":\"also the warehouse name\"}]}"));
        history.add(AiSdkClient.read(second.response().body(), null).path("message"));
        onBedrock(script(b -> b.say("Nothing else to change.")), body("thanks", history));

        assertEquals(5, bedrock.requests().size());
        assertEquals(List.of(), bedrock.violations());
        JsonNode last = bedrock.requests().get(4).body().path("messages");
        assertEquals("user", last.path(0).path("role").asText());
        for (int i = 1; i < last.size(); i++) {
            assertFalse(last.get(i).path("role").asText().equals(last.get(i - 1).path("role").asText()), "roles alternate: " + last);
        }
    }

    @Test
    void aThrottledFirstAttemptIsRetriedAndTheTurnSucceeds() {
        ChatHarness.Turn turn = onBedrock(script(b -> b.error(429, "Too many requests, please wait before trying again.")
                .say("Here I am.")), body("hello", List.of()));
        assertEquals(2, bedrock.requests().size());
        assertEquals("Here I am.", turn.text());
        assertTrue(turn.stream().ofType("error").isEmpty(), turn.types().toString());
        assertEquals("stop", turn.first("finish").path("finishReason").asText());
    }

    @Test
    void throttlingThatDoesNotStopEndsInAPlainErrorNamingTheModel() {
        ChatHarness.Turn turn = onBedrock(script(b -> b.error(429, "slow down").error(429, "slow down").error(429, "slow down")
                .say("never")), body("hello", List.of()));
        assertEquals(3, bedrock.requests().size(), "TurnLimits.modelAttempts");
        String error = turn.first("error").path("errorText").asText();
        assertTrue(error.contains("throttling") && error.contains(MODEL_ID), error);
        assertEquals(1, turn.stream().ofType("finish").size());
    }

    @Test
    void aModelStreamErrorMidAnswerEndsTheTurnWithWhatWasStreamedAnErrorAndFinish() throws Exception {
        ChatHarness.Turn turn = onBedrock(script(b -> b
                .turn(t -> t.text("I will add ", "the warehouse").streamException("modelStreamErrorException", "Model stream error."))),
                body("add the warehouse name", List.of()));
        assertEquals(1, bedrock.requests().size(), "part of the answer reached the client: no retry");
        assertEquals("I will add the warehouse", turn.text());
        List<String> types = turn.types();
        assertTrue(types.indexOf("text-end") < types.indexOf("error") && types.indexOf("error") < types.indexOf("finish"), types.toString());
        assertTrue(turn.first("error").path("errorText").asText().contains("model stream error"), turn.first("error").toString());

        // the stack stays up: the next turn on the same function is answered
        ChatHarness.Turn next = onBedrock(script(b -> b.say("Back again.")), body("hello?", List.of()));
        assertEquals("Back again.", next.text());
    }

    @Test
    void aModelBedrockRefusesIsAnErrorTheUserCanActOn() {
        ChatHarness.Turn turn = onBedrock(script(b -> b.error(400, "The provided model identifier is invalid.")), body("hello", List.of()));
        assertEquals(1, bedrock.requests().size(), "a refusal is not retried");
        String error = turn.first("error").path("errorText").asText();
        assertTrue(error.contains(MODEL_ID) && error.contains("BEDROCK_MODEL_ID"), error);
    }
}
