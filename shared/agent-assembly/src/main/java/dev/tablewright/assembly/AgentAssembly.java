package dev.tablewright.assembly;

import dev.tablewright.agent.AgentLoop;
import dev.tablewright.agent.TurnObserver;
import dev.tablewright.agent.model.ChatModel;
import dev.tablewright.agent.toolcall.ToolInvoker;
import dev.tablewright.agent.toolcall.UserInputPort;
import dev.tablewright.assembly.tools.ToolAssembly;
import dev.tablewright.logging.Metrics;
import dev.tablewright.agent.InternalTool;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolRegistry;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.time.Clock;
import java.util.Map;

/**
 * The agent as a door runs it, assembled from a function's environment: the model of {@code MODEL_PROVIDER}
 * ({@link ModelProvider}), the settings ({@link ChatSettings}: limits, memory budget, data sources, tables), tracing
 * named by the provider itself, the tools as {@link ToolAssembly} wires them for every door (the catalogue's chat
 * tools, each invoked in its own function, the user-input lifecycle on DynamoDB), and the loop. The chat function,
 * the local stack and any next door call this rather than wiring the loop themselves: a new provider is a
 * {@link ModelProvider} constant with its adapter, and no function's code changes. Each part is built when asked for, so a caller that brings its own (a local model, in-process tools) pays for none
 * of the others.
 */
public final class AgentAssembly {

    private final Map<String, String> env;
    private final ModelProvider provider;
    private final ToolAssembly toolAssembly;
    private final ChatSettings settings;

    private AgentAssembly(Map<String, String> env, ModelProvider provider, ToolAssembly tools) {
        this.env = Map.copyOf(env);
        this.provider = provider;
        this.toolAssembly = tools;
        this.settings = ChatSettings.fromEnvironment(env, tools.settings());
    }

    /** Reads {@code MODEL_PROVIDER} and the chat's settings; a value that cannot be used stops here, named. */
    public static AgentAssembly fromEnvironment(Map<String, String> env) {
        return new AgentAssembly(env, ModelProvider.fromEnvironment(env), ToolAssembly.fromEnvironment(env));
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

    /**
     * The environment's one DynamoDB client ({@link ToolAssembly#dynamoDb}): the user-input lifecycle's, and the one
     * a door's own stores (conversations, stream log, approvals) share, so a function builds one client at init.
     */
    public DynamoDbClient dynamoDb() {
        return toolAssembly.dynamoDb();
    }

    /** Each tool run in its own function ({@link ToolAssembly#lambdaTools}). */
    public ToolInvoker lambdaTools() {
        return toolAssembly.lambdaTools();
    }

    /** The user-input lifecycle on the template's UserInputTable; {@link UserInputPort#NONE} without one ({@link ToolAssembly#userInput}). */
    public UserInputPort userInput() {
        return toolAssembly.userInput();
    }

    /** The input requests a door settles a form's answer in ({@code USER_INPUT_TABLE}); null without the table. */
    public dev.tablewright.userinput.InputRequestService inputRequests() {
        return settings.userInputTable() == null ? null : toolAssembly.inputRequests(settings.userInputTable());
    }

    /**
     * The loop over the catalogue's chat tools (the agent's own among them) for the configured data sources, within the settings' limits and memory
     * budget, heard by {@code observer} and publishing its metrics to the function's namespace.
     */
    public AgentLoop loop(ChatModel model, ToolInvoker tools, UserInputPort userInput, TurnObserver observer) {
        ToolRegistry registry = toolAssembly.registry(ToolDefinition.Door.CHAT);
        return new AgentLoop(model, registry, InternalTool.standard(registry, tools), tools, userInput, settings.limits(),
                settings.memory(), Clock.systemUTC()).observedBy(observer).publishingMetricsTo(Metrics.namespace(env));
    }
}
