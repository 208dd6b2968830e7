package dev.tablewright.systemtest.chat;

import dev.tablewright.door.TurnStreams;
import dev.tablewright.agent.conversation.ConversationMemory;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.AgentLoop;
import dev.tablewright.agent.InternalTool;
import dev.tablewright.agent.TurnLimits;
import dev.tablewright.agent.model.ChatModel;
import dev.tablewright.http.stream.InMemoryResponseStream;
import dev.tablewright.agent.toolcall.UserInputPort;
import dev.tablewright.fakes.stream.UiMessageStreamReader;
import dev.tablewright.bedrock.BedrockChatModel;
import dev.tablewright.bedrock.BedrockSettings;
import dev.tablewright.catalogue.AgentToolDefinitions;
import dev.tablewright.fakes.model.BedrockModelServer;
import dev.tablewright.fakes.model.ScriptedModel;
import dev.tablewright.fakes.model.ScriptedModelServer;
import dev.tablewright.fakes.tools.InProcessToolInvoker;
import dev.tablewright.functions.chat.ChatFunction;
import dev.tablewright.fakes.aws.DeveloperShell;
import dev.tablewright.localstack.local.ShellAws;
import dev.tablewright.json.Json;
import dev.tablewright.openai.ModelSettings;
import dev.tablewright.openai.OpenAiChatModel;
import dev.tablewright.toolcontract.Tool;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolRegistry;

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

    /**
     * On Bedrock: the developer's AWS shell the model signs with, read as the local stack reads it ({@link ShellAws}),
     * another one harness by harness (session keys, a profile file, long-term keys; never the tables' region). The
     * stand-in refuses a request not signed with its key id, session token and region; {@link #close} checks them too.
     */
    final DeveloperShell shell;

    final ScriptedModel model;
    final List<Tool> tools;
    final ToolRegistry registry;
    UserInputPort userInput = UserInputPort.NONE;
    TurnLimits limits = TurnLimits.DEFAULT.withRetryBackoff(Duration.ofMillis(20));

    /**
     * A harness over the operation tools, for a suite's field: {@code @AutoClose final ChatHarness chat =
     * ChatHarness.overOperationTools();} gives each test its own and closes it after the test.
     */
    static ChatHarness overOperationTools() {
        try {
            return new ChatHarness(ChatTurnTest.operationTools());
        } catch (Exception e) {
            throw new IllegalStateException("the chat harness did not start", e);
        }
    }

    ChatHarness(List<Tool> tools) throws Exception {
        if (ON_BEDROCK) {
            shell = DeveloperShell.next();
            BedrockModelServer bedrock = BedrockModelServer.start()
                    .verifySignatures(shell.accessKeyId(), shell.secretAccessKey(), shell.sessionToken(), shell.region());
            this.model = bedrock;
            ShellAws aws = new ShellAws(shell.environment());
            this.chatModel = () -> new BedrockChatModel(new BedrockSettings(URI.create(bedrock.endpoint()), aws.region(),
                    "us.amazon.nova-pro-v1:0", Duration.ofSeconds(10)), aws.credentials());
        } else {
            shell = null;
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
        AgentLoop agent = new AgentLoop(chatModel.get(), registry, InternalTool.standard(registry, invoker),
                invoker, userInput, limits, Clock.systemUTC());
        return new ChatFunction(agent, ConversationMemory.NONE, TurnStreams.NONE, event -> "user_1", Optional::empty);
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
        if (shell != null) {
            for (var request : model.requests()) {
                if (!shell.scopes(request.headers().get("Authorization"))) {
                    throw new AssertionError("request " + request.index() + " not signed for " + shell.name() + ": "
                            + request.headers().get("Authorization"));
                }
                if ((shell.sessionToken() != null) != request.headers().containsKey("X-Amz-Security-Token")) {
                    throw new AssertionError("request " + request.index() + ": X-Amz-Security-Token "
                            + (shell.sessionToken() != null ? "missing" : "sent with long-term keys") + " in " + shell.name());
                }
            }
        }
    }
}
