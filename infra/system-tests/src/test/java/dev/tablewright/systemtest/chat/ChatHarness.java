package dev.tablewright.systemtest.chat;

import dev.tablewright.aisdk.resume.TurnStreams;
import dev.tablewright.aisdk.conversation.ConversationMemory;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.AgentLoop;
import dev.tablewright.agent.InternalTool;
import dev.tablewright.agent.TurnLimits;
import dev.tablewright.agent.model.ChatModel;
import dev.tablewright.http.stream.InMemoryResponseStream;
import dev.tablewright.agent.tools.UserInputPort;
import dev.tablewright.aisdk.UiStreamTurn;
import dev.tablewright.aisdk.stream.UiMessageStreamReader;
import dev.tablewright.bedrock.BedrockChatModel;
import dev.tablewright.bedrock.BedrockSettings;
import dev.tablewright.catalog.AgentToolDefinitions;
import dev.tablewright.fakes.model.BedrockModelServer;
import dev.tablewright.fakes.model.ScriptedModel;
import dev.tablewright.fakes.model.ScriptedModelServer;
import dev.tablewright.fakes.tools.InProcessToolInvoker;
import dev.tablewright.functions.chat.ChatFunction;
import dev.tablewright.json.Json;
import dev.tablewright.openai.ModelSettings;
import dev.tablewright.openai.OpenAiChatModel;
import dev.tablewright.tool.Tool;
import dev.tablewright.tool.ToolDefinition;
import dev.tablewright.tool.ToolRegistry;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A chat turn wired as in production but in-process: the real openai-java client against the scripted model
 * server, the real tools in-process, the real UI message stream writer into an in-memory response.
 */
final class ChatHarness implements AutoCloseable {

    /**
     * {@code -Dtablewright.modelProvider=bedrock} runs the suites built on this harness against the Bedrock stand-in
     * (the same scripts, Bedrock's wire); unset, the OpenAI-compatible scripted server.
     */
    static final boolean ON_BEDROCK = "bedrock".equals(System.getProperty("tablewright.modelProvider"));

    final ScriptedModel model;
    final List<Tool> tools;
    final ToolRegistry registry;
    UserInputPort userInput = UserInputPort.NONE;
    TurnLimits limits = TurnLimits.DEFAULT.withRetryBackoff(Duration.ofMillis(20));

    ChatHarness(List<Tool> tools) throws Exception {
        if (ON_BEDROCK) {
            BedrockModelServer bedrock = BedrockModelServer.start().verifySignatures("AKIDHARNESS000000000", "harness-secret");
            this.model = bedrock;
            this.chatModel = () -> new BedrockChatModel(new BedrockSettings(URI.create(bedrock.endpoint()), "us-east-1",
                    "us.amazon.nova-pro-v1:0", Duration.ofSeconds(10)),
                    StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDHARNESS000000000", "harness-secret")));
        } else {
            ScriptedModelServer openAi = ScriptedModelServer.start();
            this.model = openAi;
            this.chatModel = () -> new OpenAiChatModel(new ModelSettings(openAi.baseUrl(), "scripted-model", "sk-test-not-a-secret", Duration.ofSeconds(10)));
        }
        this.tools = List.copyOf(tools);
        List<ToolDefinition> definitions = new ArrayList<>();
        tools.forEach(t -> definitions.add(t.definition()));
        definitions.addAll(List.of(AgentToolDefinitions.SEARCH_TOOLS, AgentToolDefinitions.UPDATE_EDITABLE_STATUS));
        this.registry = new ToolRegistry(definitions);
    }

    /** The model the turn runs on: the OpenAI client against {@link #model}, unless a test wires another provider. */
    Supplier<ChatModel> chatModel;

    ChatFunction function() {
        InProcessToolInvoker invoker = new InProcessToolInvoker(tools);
        UiStreamTurn turn = new UiStreamTurn(new AgentLoop(chatModel.get(), registry, InternalTool.standard(registry, invoker),
                invoker, userInput, limits, Clock.systemUTC()));
        return new ChatFunction(turn, ConversationMemory.NONE, TurnStreams.NONE, event -> "user_1", Optional::empty);
    }

    /** One request through the handler; the response as it reached the (in-memory) client. */
    Turn send(String body) {
        return send(body, r -> { });
    }

    Turn send(String body, Consumer<InMemoryResponseStream> beforeRun) {
        InMemoryResponseStream response = new InMemoryResponseStream();
        beforeRun.accept(response);
        ObjectNode event = Json.object().put("body", body).put("isBase64Encoded", false);
        event.putObject("requestContext").put("requestId", "req_test");
        function().handle(event, response);
        return new Turn(response, response.statusCode() != null && response.statusCode() == 200
                ? UiMessageStreamReader.parse(response.body()) : null);
    }

    record Turn(InMemoryResponseStream response, UiMessageStreamReader.Parsed stream) {
        List<String> types() {
            return stream.types();
        }

        String text() {
            StringBuilder out = new StringBuilder();
            stream.ofType("text-delta").forEach(p -> out.append(p.path("delta").asText()));
            return out.toString();
        }

        JsonNode first(String type) {
            List<JsonNode> parts = stream.ofType(type);
            if (parts.isEmpty()) {
                throw new AssertionError("no " + type + " part in " + types());
            }
            return parts.get(0);
        }
    }

    @Override
    public void close() {
        model.close();
    }
}
