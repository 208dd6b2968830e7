package dev.tablewright.agent;

import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.model.ModelTool;
import dev.tablewright.agent.model.ToolCallRequest;
import dev.tablewright.agent.toolcall.ClientTool;
import dev.tablewright.agent.toolcall.ToolInvoker;
import dev.tablewright.agent.toolcall.ToolResultText;
import dev.tablewright.agent.toolcall.UserInputPort;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolEffect;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.toolcontract.ToolOutcomeJson;
import dev.tablewright.toolcontract.ToolRegistry;
import dev.tablewright.validation.Identifiers;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The tool calls of a step: their arguments parsed, at most {@link TurnLimits#maxToolCallsPerStep} run, each routed
 * by what the tool is (one the client runs, one inside the agent, one behind the {@link ToolInvoker}) through the
 * input step, and its answer acted on by the {@link ToolEffect} it reports. The step's leading lookups are invoked
 * at once ({@link StepLookups}); the calls are still taken, streamed and answered in the model's order.
 */
final class ToolDispatch {

    private final ToolRegistry registry;
    private final ToolInvoker invoker;
    private final InputStep input;
    private final TurnLimits limits;
    private final Map<String, InternalTool> internal = new LinkedHashMap<>();

    ToolDispatch(ToolRegistry registry, ToolInvoker invoker, InputStep input, TurnLimits limits, List<InternalTool> internalTools) {
        this.registry = registry;
        this.invoker = invoker;
        this.input = input;
        this.limits = limits;
        internalTools.forEach(t -> internal.put(t.definition().name(), t));
    }

    ToolRegistry registry() {
        return registry;
    }

    /** Runs one step's calls. True when the repair bound was reached ({@link TurnState#repairErrors} say why). */
    boolean runStep(TurnState s, List<ToolCallRequest> calls) throws TurnState.Interrupted {
        try (StepLookups lookups = StepLookups.start(s, calls, registry, internal.keySet(), invoker, input,
                limits.maxToolCallsPerStep())) {
            return runStep(s, calls, lookups);
        }
    }

    private boolean runStep(TurnState s, List<ToolCallRequest> calls, StepLookups lookups) throws TurnState.Interrupted {
        int run = 0;
        for (ToolCallRequest call : calls) {
            s.checkClient();
            ObjectNode arguments;
            try {
                arguments = arguments(call);
            } catch (Exception e) {
                String error = e instanceof StreamConstraintsException
                        // valid JSON, but a name (e.g. a visual_settings.columns key) or value past the parser's limits
                        ? "The arguments of " + call.name() + " hold a name or value that is too long; names are at most "
                          + Identifiers.MAX_LENGTH + " characters."
                        : "The arguments of " + call.name() + " are not a valid JSON object; send them again as one JSON object.";
                s.emit(new AgentEvent.ToolCallRejected(call.id(), call.name(),
                        Json.MAPPER.getNodeFactory().textNode(TurnState.clip(call.arguments(), 2000)), error));
                s.toolResult(call.id(), errorJson(ErrorCode.INVALID_ARGUMENTS, error));
                s.record.tool(call.name(), "malformed-arguments", 0);
                continue;
            }
            s.emit(new AgentEvent.ToolCallReady(call.id(), call.name(), arguments));
            if (s.clientTools.containsKey(call.name())) {
                s.deferred.add(new DeferredCall(call.id(), call.name(), DeferredCall.Waiting.CLIENT));
                s.record.tool(call.name(), "client", 0);
                continue;
            }
            if (++run > limits.maxToolCallsPerStep()) {
                String error = "Skipped: at most " + limits.maxToolCallsPerStep() + " tool calls are run per step. Call it again in your next step.";
                s.emit(new AgentEvent.ToolFailed(call.id(), error));
                s.toolResult(call.id(), errorJson(ErrorCode.TOO_MANY_CALLS, error));
                s.record.tool(call.name(), "skipped", 0);
                continue;
            }
            if (run(s, call.id(), call.name(), arguments, Map.of(), lookups)) {
                return true;
            }
        }
        return false;
    }

    static ObjectNode arguments(ToolCallRequest call) throws Exception {
        JsonNode parsed = Json.parse(call.arguments() == null || call.arguments().isBlank() ? "{}" : call.arguments());
        if (!parsed.isObject()) {
            throw new IllegalArgumentException("not an object");
        }
        return (ObjectNode) parsed;
    }

    /**
     * Runs one server-side call (inside the agent or behind the invoker) with {@code submitted} input values.
     * True when the repair bound was reached.
     */
    boolean run(TurnState s, String toolCallId, String name, ObjectNode arguments, Map<String, String> submitted) {
        return run(s, toolCallId, name, arguments, submitted, StepLookups.NONE);
    }

    /** {@link #run}, taking a lookup's answer from {@code lookups} when it was run ahead. */
    private boolean run(TurnState s, String toolCallId, String name, ObjectNode arguments, Map<String, String> submitted,
                        StepLookups lookups) {
        long started = System.nanoTime();
        InternalTool own = internal.get(name);
        if (own != null) {
            s.observed.toolCallStarted(toolCallId, name, arguments);
            JsonNode output = own.run(s, toolCallId, arguments);
            s.observed.toolCallEnded(toolCallId, name, ToolOutcome.ok(output));
            answered(s, toolCallId, name, output);
            s.record.tool(name, "ok", System.nanoTime() - started);
            return false;
        }
        Optional<ToolDefinition> definition = registry.find(name);
        if (definition.isEmpty() || !invoker.knows(name)) {
            String error = "There is no tool named '" + name + "'. Use one of the listed tools, or search_tools to find one.";
            s.emit(new AgentEvent.ToolFailed(toolCallId, error));
            s.toolResult(toolCallId, errorJson(ErrorCode.UNKNOWN_TOOL, error));
            s.record.tool(name, "unknown", 0);
            return false;
        }
        ToolDefinition tool = definition.get();
        Optional<StepLookups.Answer> ahead = lookups.take(toolCallId, tool.takesWorkingConfig() ? s.working.current() : null);
        // Always: a tool may learn only where it runs that it needs input (the database tools ask for `database`
        // when they have several data sources), so it needs the saved values either way.
        UserInputPort.Readiness readiness = ahead.isPresent() ? ahead.get().readiness() : input.check(s, tool, arguments, submitted);
        if (readiness.missing().isPresent()) {
            input.ask(s, toolCallId, name, readiness.missing().get());
            s.record.tool(name, "needs-input", ahead.isPresent() ? ahead.get().nanos() : System.nanoTime() - started);
            return false;
        }
        ToolOutcome outcome;
        // Every log line of the call (the invoker's, the tool's when in-process) names the tool.
        StructuredLog.put("toolName", name);
        s.observed.toolCallStarted(toolCallId, name, readiness.arguments());
        try {
            // the arguments go as the model sent them; the working config goes beside them, for the tool to take
            // when the model left config out (ToolInvocation.config)
            outcome = ahead.isPresent() ? ahead.get().outcome()
                    : invoker.invoke(new ToolInvocation(name, toolCallId, s.input.conversationId(), s.input.ownerId(),
                    readiness.arguments(), new LinkedHashMap<>(readiness.sessionValues()), null,
                    tool.takesWorkingConfig() ? s.working.current() : null));
        } finally {
            StructuredLog.put("toolName", null);
        }
        s.observed.toolCallEnded(toolCallId, name, outcome);
        s.record.tool(name, outcome.status().wireName(), ahead.isPresent() ? ahead.get().nanos() : System.nanoTime() - started);
        return switch (outcome) {
            case ToolOutcome.Ok answered -> ok(s, toolCallId, name, answered);
            case ToolOutcome.NeedsInput asked -> {
                input.ask(s, toolCallId, name, asked.request());
                yield false;
            }
            case ToolOutcome.Failed failed -> {
                s.emit(new AgentEvent.ToolFailed(toolCallId, failed.error().message()));
                s.toolResult(toolCallId, Json.write(Json.object().set("error", ToolOutcomeJson.write(failed.error()))));
                yield false;
            }
        };
    }

    private static void answered(TurnState s, String toolCallId, String name, JsonNode output) {
        s.emit(new AgentEvent.ToolResult(toolCallId, name, output));
        s.toolResult(toolCallId, ToolResultText.of(output));
    }

    /**
     * A tool's ok answer: to the output and the model, then into the turn's state by what the tool says it did
     * ({@link ToolEffect}). True when the repair bound was reached.
     */
    private boolean ok(TurnState s, String toolCallId, String name, ToolOutcome.Ok outcome) {
        answered(s, toolCallId, name, outcome.output());
        switch (outcome.effect()) {
            case ToolEffect.ProposedConfig proposed -> {
                s.consecutiveInvalid = 0;
                if (s.working.replace(proposed.config())) {
                    s.emitWorkingConfig();
                }
                s.editable = s.working.editableFields();
            }
            case ToolEffect.InvalidConfig invalid -> {
                if (++s.consecutiveInvalid > limits.maxRepairs()) {
                    s.repairErrors = invalid.errors();
                    s.emit(new AgentEvent.RepairBoundReached(toolCallId, name, invalid.errors()));
                    return true;
                }
            }
            case ToolEffect.Previewed previewed -> {
                s.consecutiveInvalid = 0;
                s.working.replace(previewed.config());
                s.editable = s.working.editableFields();
                ObjectNode preview = ((ObjectNode) outcome.output()).deepCopy();
                if (!preview.has("configId") && s.working.configId() != null) {
                    preview.put("configId", s.working.configId());
                }
                s.working.previewed(preview);
                s.emitWorkingConfig();
                s.emit(new AgentEvent.PreviewReady(toolCallId, Preview.of(preview)));
            }
            case ToolEffect.None none -> {
                // an answer that changes nothing of the config
            }
        }
        return false;
    }

    /** The tools the model may call this step: the page's core set, those it discovered, the client's own. */
    List<ModelTool> modelTools(TurnState s) {
        Map<String, ModelTool> tools = new LinkedHashMap<>();
        for (ToolDefinition t : registry.coreTools(s.page())) {
            tools.put(t.name(), modelTool(t));
        }
        for (ToolDefinition t : s.discovered.values()) {
            tools.putIfAbsent(t.name(), modelTool(t));
        }
        for (ClientTool t : s.clientTools.values()) {
            tools.putIfAbsent(t.name(), new ModelTool(t.name(), t.description(), t.parameters()));
        }
        return List.copyOf(tools.values());
    }

    /** A tool as the chat's model is sent it: its schema as the registry derived it once ({@link ToolDefinition#chatParameters}). */
    private ModelTool modelTool(ToolDefinition t) {
        return new ModelTool(t.name(), t.description(), registry.chatParameters(t));
    }

    static String errorJson(ErrorCode code, String message) {
        return Json.write(Map.of("error", Map.of("code", code.wireName(), "message", message)));
    }
}
