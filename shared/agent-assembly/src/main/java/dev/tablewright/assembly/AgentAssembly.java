package dev.tablewright.assembly;

import dev.tablewright.agent.AgentLoop;
import dev.tablewright.agent.TurnObserver;
import dev.tablewright.agent.model.ChatModel;
import dev.tablewright.agent.toolcall.ToolInvoker;
import dev.tablewright.agent.toolcall.UserInputLifecycle;
import dev.tablewright.agent.toolcall.UserInputPort;
import dev.tablewright.dynamodb.DynamoDbClients;
import dev.tablewright.dynamodb.DynamoDbInputRequestStore;
import dev.tablewright.dynamodb.DynamoDbSavedValuesStore;
import dev.tablewright.invoke.LambdaToolInvoker;
import dev.tablewright.logging.Metrics;
import dev.tablewright.agent.InternalTool;
import dev.tablewright.catalog.ToolCatalogue;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolRegistry;
import dev.tablewright.userinput.InputRequestService;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.time.Clock;
import java.util.Map;

/**
 * The agent as a door runs it, assembled from a function's environment: the model of {@code MODEL_PROVIDER}
 * ({@link ModelProvider}), the settings ({@link ChatSettings}: limits, memory budget, data sources, tables), tracing
 * named by the provider itself, the user-input lifecycle on DynamoDB, the tools invoked in their own functions, and
 * the loop. The chat function, the local stack and any next door call this rather than wiring the loop themselves:
 * a new provider is a {@link ModelProvider} constant with its adapter, and no function's code changes.
 * Each part is built when asked for, so a caller that brings its own (a local model, in-process tools) pays for none
 * of the others.
 */
public final class AgentAssembly {

    private final Map<String, String> env;
    private final ModelProvider provider;
    private final ChatSettings settings;

    private AgentAssembly(Map<String, String> env, ModelProvider provider, ChatSettings settings) {
        this.env = Map.copyOf(env);
        this.provider = provider;
        this.settings = settings;
    }

    /** Reads {@code MODEL_PROVIDER} and the chat's settings; a value that cannot be used stops here, named. */
    public static AgentAssembly fromEnvironment(Map<String, String> env) {
        return new AgentAssembly(env, ModelProvider.fromEnvironment(env), ChatSettings.fromEnvironment(env));
    }

    public ModelProvider provider() {
        return provider;
    }

    public ChatSettings settings() {
        return settings;
    }

    /** The provider's model, from its own settings. */
    public ChatModel model() {
        return provider.model(env);
    }

    /**
     * GenAI spans of every turn when {@code OTEL_EXPORTER_OTLP_ENDPOINT} is set (docs/operations.md#traces), named by
     * the provider ({@link ModelProvider#tracingName()}, {@link ModelProvider#modelName}); else nothing, and no
     * OpenTelemetry class is loaded (the module is referenced on this branch only).
     */
    public TurnObserver turnObserver() {
        String endpoint = env.get("OTEL_EXPORTER_OTLP_ENDPOINT");
        if (endpoint == null || endpoint.isBlank()) {
            return TurnObserver.NONE;
        }
        return dev.tablewright.telemetry.otel.OtelTurnObserver.fromEnvironment(env, provider.tracingName(), provider.modelName(env));
    }

    /** Each tool run in its own function, by Lambda {@code Invoke} of the function its {@code TOOL_FUNCTION_*} names. */
    public ToolInvoker lambdaTools() {
        return new LambdaToolInvoker(LambdaToolInvoker.lambdaClient(env), LambdaToolInvoker.functionsFromEnvironment(env));
    }

    /** The user-input lifecycle on the template's UserInputTable; {@link UserInputPort#NONE} without one. */
    public UserInputPort userInput() {
        if (settings.userInputTable() == null) {
            return UserInputPort.NONE;
        }
        DynamoDbClient client = DynamoDbClients.fromEnvironment(env);
        InputRequestService.Expiry expiry = settings.inputExpiry();
        return new UserInputLifecycle(new InputRequestService(
                new DynamoDbInputRequestStore(client, settings.userInputTable(), expiry.valuesTtl()),
                new DynamoDbSavedValuesStore(client, settings.userInputTable()), Clock.systemUTC(), expiry));
    }

    /**
     * The loop over the catalogue's chat tools (the agent's own among them) for the configured data sources, within the settings' limits and memory
     * budget, heard by {@code observer} and publishing its metrics to the function's namespace.
     */
    public AgentLoop loop(ChatModel model, ToolInvoker tools, UserInputPort userInput, TurnObserver observer) {
        ToolRegistry registry = ToolCatalogue.registry(settings.dataSources()).offeredOn(ToolDefinition.Door.CHAT);
        return new AgentLoop(model, registry, InternalTool.standard(registry, tools), tools, userInput, settings.limits(),
                settings.memory(), Clock.systemUTC()).observedBy(observer).publishingMetricsTo(Metrics.namespace(env));
    }
}
