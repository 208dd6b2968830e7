package dev.tablewright.systemtest.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.toolcall.UserInputLifecycle;
import dev.tablewright.dynamodb.DynamoDbInputRequestStore;
import dev.tablewright.dynamodb.DynamoDbSavedValuesStore;
import dev.tablewright.fakes.dynamodb.DynamoDbLocalLauncher;
import dev.tablewright.fakes.dynamodb.TemplateTables;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.fakes.model.RecordedRequest;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.FieldType;
import dev.tablewright.toolcontract.InputField;
import dev.tablewright.toolcontract.Tool;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolEffect;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.toolcontract.UserInputRequirement;
import dev.tablewright.userinput.InputRequestService;
import dev.tablewright.validation.ValidationError;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

import static dev.tablewright.systemtest.chat.ChatTurnTest.body;
import static dev.tablewright.systemtest.chat.ChatTurnTest.parse;
import static dev.tablewright.systemtest.chat.ChatTurnTest.toolMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A tool whose {@code requiresUserInput} is not met pauses the turn with an input request (stored in DynamoDB
 * Local through the user-input lifecycle); after the user submits, the next request resumes that very call with the
 * values, without asking the model to choose again; the saved value is not asked for again.
 */
class ChatTurnUserInputTest {

    /** A tool whose database only the user can name (production or staging, saved for the conversation). */
    static Tool askingForDatabase(String name, String description, String schema, String question,
                                  Function<ToolInvocation, ToolOutcome> run) {
        ToolDefinition definition = new ToolDefinition(name, description, (ObjectNode) parse(schema),
                new UserInputRequirement(question, List.of(new InputField("database", "Database", null,
                        FieldType.SELECT, true, null, null, null, null, List.of("production", "staging"), null)), true, null),
                Set.of("tables"), ToolDefinition.RunsOn.FUNCTION);
        return new Tool() {
            @Override
            public ToolDefinition definition() {
                return definition;
            }

            @Override
            public ToolOutcome execute(ToolInvocation invocation) {
                return run.apply(invocation);
            }
        };
    }

    /** A database tool: which database is only the user's to say. */
    static Tool countRows() {
        return askingForDatabase("count_rows", "Counts the rows of a table.",
                "{\"type\":\"object\",\"properties\":{\"table\":{\"type\":\"string\"}},\"required\":[\"table\"]}",
                "Which database should I count in?",
                invocation -> ToolOutcome.ok(Json.object().put("table", invocation.arguments().path("table").asText())
                        .put("database", invocation.arguments().path("database").asText()).put("rows", 42)));
    }

    /** A tool that asks the user for nothing and shows which saved values reached it. */
    static final class ShowValues implements Tool {
        static final ToolDefinition DEFINITION = new ToolDefinition("show_values", "Shows the values it was given.",
                (ObjectNode) parse("{\"type\":\"object\",\"properties\":{}}"), null, Set.of("tables"), ToolDefinition.RunsOn.FUNCTION);

        @Override
        public ToolDefinition definition() {
            return DEFINITION;
        }

        @Override
        public ToolOutcome execute(ToolInvocation invocation) {
            com.fasterxml.jackson.databind.node.ArrayNode names = Json.MAPPER.createArrayNode();
            invocation.sessionValues().keySet().forEach(names::add);
            ObjectNode out = Json.object();
            out.set("values", names);
            out.set("arguments", invocation.arguments());
            return ToolOutcome.ok(out);
        }
    }

    ChatHarness chat;
    InputRequestService service;

    @BeforeEach
    void start() throws Exception {
        chat = new ChatHarness(List.of(countRows(), new ShowValues()));
        DynamoDbClient client = DynamoDbLocalLauncher.shared().client();
        String table = TemplateTables.fromTemplate().createAll(client, "chat-" + UUID.randomUUID().toString().substring(0, 8) + "-")
                .tableName("UserInputTable");
        InputRequestService.Expiry expiry = InputRequestService.Expiry.DEFAULT;
        service = new InputRequestService(new DynamoDbInputRequestStore(client, table, expiry.valuesTtl()),
                new DynamoDbSavedValuesStore(client, table), Clock.systemUTC(), expiry);
        chat.userInput = new UserInputLifecycle(service);
    }

    @AfterEach
    void stop() {
        chat.close();
    }

    @Test
    void aToolNeedingInputPausesTheTurnAndTheNextRequestResumesTheSameCall() throws Exception {
        chat.model.enqueue(ModelScript.builder()
                .turn(t -> t.toolCall("call_1", "count_rows", "{\"table\":\"orders\"}"))
                .say("orders has 42 rows in staging.")
                .turn(t -> t.toolCall("call_2", "count_rows", "{\"table\":\"users\"}"))
                .say("users has 42 rows too.")
                .build());

        ChatHarness.Turn first = chat.send(body("how many orders?"));
        JsonNode request = first.first("data-user-input-request").path("data");
        assertEquals("call_1", request.path("requestId").asText());
        assertEquals("call_1", request.path("toolCallId").asText());
        assertEquals("count_rows", request.path("toolName").asText());
        assertEquals("database", request.path("fields").get(0).path("name").asText());
        assertTrue(request.path("saveForSession").asBoolean());
        assertEquals("tool-calls", first.first("finish").path("finishReason").asText());
        assertTrue(first.stream().ofType("tool-output-available").isEmpty(), "the tool did not run");
        assertEquals(1, chat.model.requests().size());
        assertEquals("pending", service.find("user_1", "conv_1", "call_1").status().wireName());

        // the user answers through the HTTP API (the user-input lifecycle), then useChat sends the conversation again
        service.submit("user_1", "conv_1", "call_1", parse("{\"database\":\"staging\"}"));
        // the assistant message as the AI SDK client built it from the first stream: the tool part waits at input-available
        JsonNode assistant = AiSdkClient.read(first.response().body(), null).path("message");
        assertEquals("input-available", AiSdkClientTest.parts(assistant, "tool-count_rows").get(0).path("state").asText());
        assertEquals(1, AiSdkClientTest.parts(assistant, "data-user-input-request").size());
        List<JsonNode> history = List.of(
                parse("{\"id\":\"u_0\",\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"text\":\"how many orders?\"}]}"),
                assistant);
        ChatHarness.Turn second = chat.send(body(null, history, List.of()));

        JsonNode output = second.first("tool-output-available");
        assertEquals("call_1", output.path("toolCallId").asText());
        assertEquals("staging", output.path("output").path("database").asText());
        assertEquals(2, chat.model.requests().size(), "the model was not asked to choose the tool again");
        RecordedRequest resumed = chat.model.requests().get(1);
        assertEquals("staging", toolMessage(resumed, "call_1").path("database").asText());
        assertEquals("orders has 42 rows in staging.", second.text());
        JsonNode continued = AiSdkClient.read(second.response().body(), assistant).path("message");
        assertEquals("output-available", AiSdkClientTest.parts(continued, "tool-count_rows").get(0).path("state").asText(),
                "the client's waiting tool part is completed in place");

        // saved for the session: the next call to a tool needing the same field does not ask again
        ChatHarness.Turn third = chat.send(body("and users?", List.of(), List.of()));
        assertTrue(third.stream().ofType("data-user-input-request").isEmpty());
        assertEquals("staging", third.first("tool-output-available").path("output").path("database").asText());
    }

    @Test
    void aSavedValueReachesOnlyTheToolThatAskedForIt() throws Exception {
        chat.model.enqueue(ModelScript.builder()
                .turn(t -> t.toolCall("call_1", "count_rows", "{\"table\":\"orders\"}"))
                .turn(t -> t.toolCall("call_2", "show_values", "{}"))
                .turn(t -> t.toolCall("call_3", "count_rows", "{\"table\":\"users\"}"))
                .say("done")
                .build());
        chat.send(body("how many orders?"));
        service.submit("user_1", "conv_1", "call_1", parse("{\"database\":\"staging\"}"));
        assertEquals("database", service.knownValues("user_1", "conv_1").asSessionValues().keySet().iterator().next(), "saved");

        ChatHarness.Turn later = chat.send(body("and the rest?", List.of(), List.of()));
        List<JsonNode> outputs = later.stream().ofType("tool-output-available");
        JsonNode shown = outputs.get(0).path("output");
        assertEquals(0, shown.path("values").size(), "another tool's saved value did not reach show_values: " + shown);
        assertTrue(shown.path("arguments").path("database").isMissingNode(), shown.toString());
        assertEquals("staging", outputs.get(1).path("output").path("database").asText(), "the tool that asked still gets it");
    }

    /** Needs the user's database, then answers an invalid config (as an operation tool can). */
    static Tool invalidAfterInput() {
        return askingForDatabase("check_config", "Checks a config.", "{\"type\":\"object\",\"properties\":{}}", "Which database?",
                invocation -> {
                    ObjectNode out = Json.object().put("valid", false);
                    out.putArray("errors").addObject().put("field", "data_source[0].source").put("message", "table 'ghost' does not exist");
                    return ToolOutcome.ok(out, new ToolEffect.InvalidConfig(List.of(new ValidationError("data_source[0].source",
                            "table 'ghost' does not exist"))));
                });
    }

    @Test
    void aResumedCallThatReachesTheRepairBoundEndsTheTurnOnceWithItsExplanation() throws Exception {
        chat.close();
        chat = new ChatHarness(List.of(invalidAfterInput()));
        chat.userInput = new UserInputLifecycle(service);
        chat.limits = chat.limits.withMaxRepairs(0);
        chat.model.enqueue(ModelScript.builder().turn(t -> t.toolCall("call_r", "check_config", "{}")).build());
        ChatHarness.Turn first = chat.send(body("check it"));
        assertEquals("tool-calls", first.first("finish").path("finishReason").asText());
        service.submit("user_1", "conv_1", "call_r", parse("{\"database\":\"staging\"}"));
        JsonNode assistant = AiSdkClient.read(first.response().body(), null).path("message");
        List<JsonNode> history = List.of(
                parse("{\"id\":\"u_0\",\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"text\":\"check it\"}]}"), assistant);

        java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
        dev.tablewright.logging.StructuredLog.redirect(new java.io.PrintStream(log, true, java.nio.charset.StandardCharsets.UTF_8));
        ChatHarness.Turn resumed;
        try {
            resumed = chat.send(body(null, history, List.of()));
        } finally {
            dev.tablewright.logging.StructuredLog.redirect(System.out);
        }
        assertEquals(1, resumed.stream().ofType("finish").size(), resumed.types().toString());
        assertEquals("stop", resumed.first("finish").path("finishReason").asText());
        assertTrue(resumed.text().contains("could not make this change valid"), resumed.text());
        String lines = log.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(lines.contains("\"Outcome\":\"repair-bound\""), lines);
        assertTrue(!lines.contains("\"level\":\"ERROR\""), "no internal error: " + lines);
    }
}

