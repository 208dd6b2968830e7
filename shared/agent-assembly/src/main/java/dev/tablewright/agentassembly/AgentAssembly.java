package dev.tablewright.agentassembly;

import dev.tablewright.agent.AgentLoop;
import dev.tablewright.agent.TurnObserver;
import dev.tablewright.agent.model.ChatModel;
import dev.tablewright.agent.toolcall.ToolInvoker;
import dev.tablewright.agent.toolcall.UserInputPort;
import dev.tablewright.toolassembly.DoorStores;
import dev.tablewright.toolassembly.SecretSetting;
import dev.tablewright.toolassembly.ToolAssembly;
import dev.tablewright.door.TurnStreams;
import dev.tablewright.logging.Metrics;
import dev.tablewright.agent.InternalTool;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolRegistry;


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
    private final ChatModel model;
    private TurnObserver observer;

    private AgentAssembly(Map<String, String> env, ModelProvider provider, ToolAssembly tools, ChatModel model) {
        this.env = Map.copyOf(env);
        this.provider = provider;
        this.toolAssembly = tools;
        this.settings = ChatSettings.fromEnvironment(env, tools.settings());
        this.model = model;
    }

    /** Reads {@code MODEL_PROVIDER} and the chat's settings; a value that cannot be used stops here, named. */
    public static AgentAssembly fromEnvironment(Map<String, String> env) {
        return new AgentAssembly(env, ModelProvider.fromEnvironment(env), ToolAssembly.fromEnvironment(env), null);
    }

    /** This assembly with {@code model} (the local stack's) instead of the provider's. */
    public AgentAssembly withModel(ChatModel model) {
        return new AgentAssembly(env, provider, toolAssembly, model);
    }

    /** This assembly with its tools run by {@code invoker} ({@link ToolAssembly#runningToolsWith}). */
    public AgentAssembly runningToolsWith(ToolInvoker invoker) {
        return new AgentAssembly(env, provider, toolAssembly.runningToolsWith(invoker), model);
    }

    /**
     * The secret the chat's tool approvals are signed with: {@code TOOL_APPROVAL_SECRET} (locally), else the secret
     * {@code TOOL_APPROVAL_SECRET_ARN} names ({@link SecretSetting}); empty: approvals are not signed (still bound
     * by the stored call).
     */
    public java.util.Optional<String> toolApprovalSecret() {
        return SecretSetting.read(env.get("TOOL_APPROVAL_SECRET"), env.get("TOOL_APPROVAL_SECRET_ARN"), "TOOL_APPROVAL_SECRET_ARN");
    }

    /** The tools' assembly this one builds on (the stores a door needs, {@link ToolAssembly#doorStores}). */
    public ToolAssembly tools() {
        return toolAssembly;
    }

    public ModelProvider provider() {
        return provider;
    }

    public ChatSettings settings() {
        return settings;
    }

    /**
     * SnapStart: what the provider's first streamed completion loads, from a canned answer on the loopback interface
     * (no model is called); a failure stops the snapshot.
     */
    public void primeModel() {
        try {
            provider.prime(env);
        } catch (java.io.IOException | dev.tablewright.agent.model.ModelFailure e) {
            throw new IllegalStateException("model priming failed: " + e.getMessage(), e);
        }
    }

    /** The provider's model, from its own settings (or the one this assembly was given). */
    public ChatModel model() {
        return model != null ? model : provider.model(env);
    }

    /**
     * GenAI spans of every turn when {@code OTEL_EXPORTER_OTLP_ENDPOINT} is set (docs/operations.md#traces), named by
     * the provider ({@link ModelProvider#tracingName()}, {@link ModelProvider#modelName}); else nothing, and no
     * OpenTelemetry class is loaded (the module is referenced on this branch only).
     */
    public synchronized TurnObserver turnObserver() {
        if (observer == null) {
            String endpoint = env.get("OTEL_EXPORTER_OTLP_ENDPOINT");
            observer = endpoint == null || endpoint.isBlank() ? TurnObserver.NONE
                    : dev.tablewright.telemetry.otel.OtelTurnObserver.fromEnvironment(env, provider.tracingName(), provider.modelName(env));
        }
        return observer; // one per assembly: the loop reports to it, the function flushes it after each request
    }

    /** Each tool run in its own function ({@link ToolAssembly#lambdaTools}). */
    public ToolInvoker lambdaTools() {
        return toolAssembly.lambdaTools();
    }

    /** The user-input lifecycle on the template's UserInputTable; {@link UserInputPort#NONE} without one ({@link ToolAssembly#userInput}). */
    public UserInputPort userInput() {
        return toolAssembly.userInput();
    }

    /** The loop with this assembly's model, tools and user-input lifecycle, heard by {@code observer}. */
    public AgentLoop loop(TurnObserver observer) {
        return loop(model(), toolAssembly.tools(), userInput(), observer);
    }

    /** The stream log of running turns, for turns within the settings' time budget ({@link DoorStores#turnStreams}). */
    public TurnStreams turnStreams() {
        return toolAssembly.doorStores().turnStreams(settings.limits().maxTurnDuration());
    }

    /**
     * The loop over the catalogue's chat tools (the agent's own among them) for the configured data sources, within the settings' limits and memory
     * budget, heard by {@code observer} and publishing its metrics to the function's namespace.
     */
    public AgentLoop loop(ChatModel model, ToolInvoker tools, UserInputPort userInput, TurnObserver observer) {
        ToolRegistry registry = toolAssembly.registry(ToolDefinition.Audience.AGENT);
        return new AgentLoop(model, registry, InternalTool.standard(registry, tools), tools, userInput, settings.limits(),
                settings.memory(), Clock.systemUTC()).observedBy(observer).publishingMetricsTo(Metrics.namespace(env));
    }
}
