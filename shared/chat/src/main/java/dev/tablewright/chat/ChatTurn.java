package dev.tablewright.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.tools.ChatToolDefinitions;
import dev.tablewright.conversation.WorkingDraft;
import dev.tablewright.editable.EditableFieldUpdate;
import dev.tablewright.editable.EditableStatus;
import dev.tablewright.chat.model.ChatModel;
import dev.tablewright.chat.model.ModelFailure;
import dev.tablewright.chat.model.ModelMessage;
import dev.tablewright.chat.model.ModelRequest;
import dev.tablewright.chat.model.ModelRetryPolicy;
import dev.tablewright.chat.model.ModelStep;
import dev.tablewright.chat.model.ModelStreamListener;
import dev.tablewright.chat.model.ModelTool;
import dev.tablewright.chat.model.ToolCallRequest;
import dev.tablewright.chat.prompt.SystemPrompt;
import dev.tablewright.chat.request.ChatRequest;
import dev.tablewright.chat.request.ClientTool;
import dev.tablewright.chat.request.Conversation;
import dev.tablewright.chat.request.UiMessage;
import dev.tablewright.chat.request.UiMessageConverter;
import dev.tablewright.chat.request.ToolResultText;
import dev.tablewright.chat.request.UiPart;
import dev.tablewright.chat.stream.UiMessageStreamWriter;
import dev.tablewright.chat.TurnEvent.Ending;
import dev.tablewright.chat.tools.ToolInvoker;
import dev.tablewright.chat.tools.UserInputPort;
import dev.tablewright.tool.InputFieldJson;
import dev.tablewright.tool.ToolOutcomeJson;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.tool.ToolDefinition;
import dev.tablewright.tool.ToolInvocation;
import dev.tablewright.tool.ToolOutcome;
import dev.tablewright.tool.ToolRegistry;
import dev.tablewright.tool.UserInputRequirement;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One chat turn: the model's tool loop, written to the client as a UI message stream.
 *
 * <p>Each step streams the model's text and tool calls as they form; server-side tools then run (through the
 * {@link ToolInvoker}, or inside this function for the catalogue search and the editable fields) and their
 * results go back to the model. The turn ends when the model answers without a tool call, or pauses when a call
 * must be answered elsewhere: a client-side tool (the next request brings its output) or a tool that needs the
 * user's input (the next request resumes it with the submitted values, without asking the model again).
 * Everything is bounded by {@link TurnLimits}; every ending is a {@code finish} and {@code [DONE]}.
 */
public final class ChatTurn {

    private static final int MAX_TOOL_RESULT_CHARS = 16_000;
    private static final Set<String> CONFIG_ARGUMENT = Set.of("config");

    private final ChatModel model;
    private final ToolRegistry registry;
    private final ToolInvoker invoker;
    private final UserInputPort userInput;
    private final TurnLimits limits;
    private final Clock clock;
    private final UiMessageConverter converter = new UiMessageConverter();
    private final ModelRetryPolicy retryPolicy;

    public ChatTurn(ChatModel model, ToolRegistry registry, ToolInvoker invoker, UserInputPort userInput,
                    TurnLimits limits, Clock clock) {
        this.model = model;
        this.registry = registry;
        this.invoker = invoker;
        this.userInput = userInput == null ? UserInputPort.NONE : userInput;
        this.limits = limits;
        this.clock = clock;
        this.retryPolicy = new ModelRetryPolicy(limits.modelAttempts(), limits.retryBackoff());
    }

    /** Thrown out of the model's stream when the client has gone: nobody is reading, stop paying for tokens. */
    private static final class ClientGone extends IOException {
        ClientGone() {
            super("client disconnected", null);
        }
    }

    /** The pages a turn can sit beside: those whose core toolset is not empty (e.g. {@code tables}). */
    public java.util.Set<String> pages() {
        return registry.contexts();
    }

    /** Thrown out of the model's stream when the turn's output cap is reached: the rest is not read. */
    private static final class OutputCapReached extends IOException {
        OutputCapReached() {
            super("the turn's output cap was reached", null);
        }
    }

    /**
     * Runs the turn to its end. Never throws for anything the model, a tool or the client does: those end the
     * stream with a plain {@code error} part and {@code finish}.
     *
     * @param ownerId            the verified caller
     * @param invocationDeadline the Lambda deadline when known (the turn stops {@link TurnLimits#deadlineMargin} before it)
     */
    public void run(ChatRequest request, String ownerId, UiMessageStreamWriter ui, Optional<Instant> invocationDeadline) {
        run(request, ownerId, ui, invocationDeadline, Optional.empty(), d -> { });
    }

    /**
     * Runs the turn on the conversation's working draft (used when the page sends no config or state of its own).
     * {@code onEnd} gets the draft as the turn left it, exactly once however the turn ends: after the
     * {@code finish} part and before {@code [DONE]}, so what it stores is there before the client can send the next
     * message.
     */
    public void run(ChatRequest request, String ownerId, UiMessageStreamWriter ui, Optional<Instant> invocationDeadline,
                    Optional<WorkingDraft> draft, java.util.function.Consumer<Optional<WorkingDraft>> onEnd) {
        run(request, ownerId, new UiStreamOutput(ui), invocationDeadline, draft, onEnd);
    }

    /** The loop itself: its events go to {@code out}, which decides how a client sees them. */
    public void run(ChatRequest request, String ownerId, TurnOutput out, Optional<Instant> invocationDeadline,
                    Optional<WorkingDraft> draft, java.util.function.Consumer<Optional<WorkingDraft>> onEnd) {
        Instant deadline = clock.instant().plus(limits.maxTurnDuration());
        if (invocationDeadline.isPresent() && invocationDeadline.get().minus(limits.deadlineMargin()).isBefore(deadline)) {
            deadline = invocationDeadline.get().minus(limits.deadlineMargin());
        }
        Turn turn = new Turn(request, ownerId, out, deadline, draft, onEnd);
        try {
            turn.run();
        } catch (ClientGone e) {
            turn.record.outcome = "client-gone";
        } catch (RuntimeException e) {
            turn.record.outcome = "internal-error";
            dev.tablewright.logging.StructuredLog.of(ChatTurn.class).error("chat turn failed", e);
            turn.fail("Something went wrong on our side while answering. Please try again.");
        } finally {
            turn.settle();
            turn.record.log();
        }
    }

    /** The state of one running turn. */
    private final class Turn {
        final ChatRequest request;
        final String ownerId;
        final String conversationId;
        final TurnOutput out;
        final Instant deadline;
        final TurnRecord record = new TurnRecord();
        final WorkingConfig working;
        EditableStatus editable;
        final List<ModelMessage> messages = new ArrayList<>();
        final Map<String, ToolDefinition> discovered = new LinkedHashMap<>();
        final Map<String, ClientTool> clientTools = new LinkedHashMap<>();
        int consecutiveInvalid;
        volatile Runnable cancelModel = () -> { };
        /** Calls this turn cannot finish: their answers come with the next request. */
        final List<DeferredCall> deferred = new ArrayList<>();

        final java.util.function.Consumer<Optional<WorkingDraft>> onEnd;
        boolean settled;

        Turn(ChatRequest request, String ownerId, TurnOutput out, Instant deadline, Optional<WorkingDraft> draft,
             java.util.function.Consumer<Optional<WorkingDraft>> onEnd) {
            this.onEnd = onEnd;
            this.request = request;
            this.ownerId = ownerId;
            this.conversationId = request.id() == null ? "anonymous" : request.id();
            this.out = out;
            this.deadline = deadline;
            this.working = new WorkingConfig(request.context(), draft);
            this.editable = working.editableFields();
            request.clientTools().forEach(t -> clientTools.put(t.name(), t));
            out.onClientGone(() -> cancelModel.run());
        }

        void run() throws ClientGone {
            Conversation conversation = converter.convert(request.messages());
            messages.add(new ModelMessage.System(""));
            messages.addAll(conversation.messages());
            rememberDiscoveredTools(conversation);
            out.emit(new TurnEvent.Started(messageId(), metadata()));
            if (!conversation.pending().isEmpty()) {
                if (settlePending(conversation.pending())) {
                    return; // the turn already ended (the repair bound was reached on a resumed call)
                }
                if (!deferred.isEmpty()) {
                    record.outcome = "paused";
                    end(Ending.TOOL_CALLS);
                    return;
                }
            }
            for (int step = 1; ; step++) {
                checkClient();
                if (step > limits.maxSteps()) {
                    say("I stopped here: this turn reached its limit of " + limits.maxSteps()
                            + " steps. Say \"continue\" and I will pick up from here.");
                    record.outcome = "max-steps";
                    end(Ending.OTHER);
                    return;
                }
                if (!clock.instant().isBefore(deadline)) {
                    outOfTime();
                    return;
                }
                if (record.usage.total() >= limits.maxTurnTokens()) {
                    say("I stopped here: this turn used its token budget. Say \"continue\" and I will pick up from here.");
                    record.outcome = "token-budget";
                    end(Ending.LENGTH);
                    return;
                }
                out.emit(new TurnEvent.StepStarted());
                record.steps++;
                ModelStep answer;
                try {
                    answer = callModel();
                } catch (OutputCapReached capped) {
                    out.emit(new TurnEvent.StepFinished());
                    say("I stopped here: my answer grew past this turn's output limit.");
                    record.outcome = "output-cap";
                    end(Ending.LENGTH);
                    return;
                } catch (ModelFailure failure) {
                    if (failure.kind() == ModelFailure.Kind.OUT_OF_TIME) {
                        out.emit(new TurnEvent.StepFinished());
                        outOfTime();
                    } else {
                        record.outcome = "model-" + failure.kind().name().toLowerCase(java.util.Locale.ROOT);
                        out.emit(new TurnEvent.Failed(failure.getMessage()));
                        out.emit(new TurnEvent.StepFinished());
                        end(Ending.ERROR);
                    }
                    return;
                }
                messages.add(new ModelMessage.Assistant(answer.text(), answer.toolCalls()));
                if (answer.toolCalls().isEmpty()) {
                    out.emit(new TurnEvent.StepFinished());
                    boolean cutByModel = "length".equals(answer.finishReason());
                    record.outcome = cutByModel ? "length" : "stop";
                    end(cutByModel ? Ending.LENGTH : Ending.STOP);
                    return;
                }
                List<ObjectNode> errorsAtBound = runToolCalls(answer.toolCalls());
                out.emit(new TurnEvent.StepFinished());
                if (errorsAtBound != null) {
                    explainValidationErrors(errorsAtBound);
                    return;
                }
                if (!deferred.isEmpty()) {
                    record.outcome = "paused";
                    end(Ending.TOOL_CALLS);
                    return;
                }
            }
        }

        // ---- the model ----

        ModelStep callModel() throws ModelFailure, ClientGone, OutputCapReached {
            messages.set(0, new ModelMessage.System(systemPrompt()));
            ModelRequest modelRequest = new ModelRequest(messages, modelTools(), limits.maxOutputTokens(), deadline,
                    cancel -> cancelModel = cancel);
            ModelFailure last = null;
            for (int attempt = 1; attempt <= Math.max(1, limits.modelAttempts()); attempt++) {
                checkClient();
                StepListener listener = new StepListener();
                long started = System.nanoTime();
                record.modelAttempts++;
                try {
                    ModelStep step = model.stream(modelRequest, listener);
                    listener.closeText();
                    record.usage = record.usage.plus(step.usage());
                    return step;
                } catch (ModelFailure failure) {
                    listener.closeText();
                    listener.abandonToolCalls();
                    if (out.clientGone()) {
                        throw new ClientGone();
                    }
                    last = failure;
                    switch (retryPolicy.after(failure, listener.emitted, attempt, clock.instant(), deadline)) {
                        case ModelRetryPolicy.GiveUp g -> throw failure;
                        case ModelRetryPolicy.OutOfTime o ->
                                throw new ModelFailure(ModelFailure.Kind.OUT_OF_TIME, "The turn ran out of time while the model was busy.", false);
                        case ModelRetryPolicy.Wait w -> {
                            if (!sleep(w.delay())) {
                                throw new ModelFailure(ModelFailure.Kind.OUT_OF_TIME, "The turn ran out of time while the model was busy.", false);
                            }
                        }
                    }
                } catch (ClientGone e) {
                    throw e;
                } catch (OutputCapReached e) {
                    listener.closeText();
                    listener.abandonToolCalls();
                    throw e;
                } catch (IOException e) {
                    throw new ClientGone();
                } finally {
                    record.modelNanos += System.nanoTime() - started;
                    cancelModel = () -> { };
                }
            }
            throw last;
        }

        /** Waits before the next attempt; false when interrupted. */
        private boolean sleep(java.time.Duration wait) {
            try {
                Thread.sleep(wait.toMillis());
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        String systemPrompt() {
            List<String> core = new ArrayList<>();
            registry.coreTools(page()).forEach(t -> core.add(t.name()));
            int discoverable = (int) registry.all().stream().filter(ToolDefinition::offeredToModel).count() - core.size();
            return SystemPrompt.of(page(), working.summary(), editable, core, Math.max(0, discoverable)).render();
        }

        List<ModelTool> modelTools() {
            Map<String, ModelTool> tools = new LinkedHashMap<>();
            for (ToolDefinition t : registry.coreTools(page())) {
                tools.put(t.name(), modelTool(t));
            }
            for (ToolDefinition t : discovered.values()) {
                tools.putIfAbsent(t.name(), modelTool(t));
            }
            for (ClientTool t : clientTools.values()) {
                tools.putIfAbsent(t.name(), new ModelTool(t.name(), t.description(), t.parameters()));
            }
            return List.copyOf(tools.values());
        }

        /** A tool that takes {@code config} gets the working config when the model leaves it out: say so in its schema. */
        ModelTool modelTool(ToolDefinition t) {
            ObjectNode schema = t.parameters() == null ? Json.object().put("type", "object") : t.parameters();
            JsonNode config = schema.path("properties").get("config");
            if (config != null) {
                schema = schema.deepCopy();
                ObjectNode properties = (ObjectNode) schema.get("properties");
                ObjectNode described = config.isObject() ? ((ObjectNode) config).deepCopy() : Json.object();
                described.put("description", "The Config to change. Omit it to use the current working config.");
                properties.set("config", described);
                JsonNode required = schema.get("required");
                if (required instanceof ArrayNode list) {
                    ArrayNode rest = Json.MAPPER.createArrayNode();
                    list.forEach(r -> {
                        if (!CONFIG_ARGUMENT.contains(r.asText())) {
                            rest.add(r);
                        }
                    });
                    schema.set("required", rest);
                }
            }
            return new ModelTool(t.name(), t.description(), schema);
        }

        /** Streams the model's step to the client: text as it comes, tool calls as they form. */
        final class StepListener implements ModelStreamListener {
            boolean emitted;
            String textId;
            /** Tool calls whose input is streaming to the client: id → name, and the input so far. */
            final Map<String, String> openToolNames = new LinkedHashMap<>();
            final Map<String, StringBuilder> openToolInputs = new LinkedHashMap<>();

            @Override
            public void textDelta(String delta) throws IOException {
                checkClient();
                countOutput(delta);
                if (textId == null) {
                    textId = TurnEvent.newId("txt");
                    out.emit(new TurnEvent.TextStarted(textId));
                }
                emitted = true;
                out.emit(new TurnEvent.TextDelta(textId, delta));
            }

            @Override
            public void toolCallStarted(String toolCallId, String toolName) throws IOException {
                checkClient();
                closeText(); // the text before a tool call is complete: the client renders it as one block
                emitted = true;
                out.emit(new TurnEvent.ToolInputStarted(toolCallId, toolName));
                openToolNames.put(toolCallId, toolName);
                openToolInputs.put(toolCallId, new StringBuilder());
            }

            @Override
            public void toolCallArgumentsDelta(String toolCallId, String delta) throws IOException {
                checkClient();
                countOutput(delta);
                out.emit(new TurnEvent.ToolInputDelta(toolCallId, delta));
                StringBuilder input = openToolInputs.get(toolCallId);
                if (input != null) {
                    input.append(delta);
                }
            }

            private void countOutput(String delta) throws OutputCapReached {
                record.outputChars += delta.length();
                if (record.outputChars > limits.maxOutputChars()) {
                    throw new OutputCapReached();
                }
            }

            /**
             * The model's stream failed while tool inputs were streaming: close each one (the client would otherwise
             * keep the part in {@code input-streaming} forever) before the turn reports the failure.
             */
            void abandonToolCalls() {
                openToolNames.forEach((id, name) -> out.emit(new TurnEvent.ToolInputFailed(id, name,
                        com.fasterxml.jackson.databind.node.TextNode.valueOf(openToolInputs.get(id).toString()),
                        "The model's answer was cut off before this tool call's input was complete.")));
                openToolNames.clear();
                openToolInputs.clear();
            }

            void closeText() {
                if (textId != null) {
                    out.emit(new TurnEvent.TextEnded(textId));
                    textId = null;
                }
            }
        }

        // ---- tools ----

        /**
         * Runs one step's tool calls. Answers the validation errors when the repair bound is reached (the turn
         * then explains them and ends), else null.
         */
        List<ObjectNode> runToolCalls(List<ToolCallRequest> calls) throws ClientGone {
            int run = 0;
            for (ToolCallRequest call : calls) {
                checkClient();
                ObjectNode arguments;
                try {
                    JsonNode parsed = Json.parse(call.arguments() == null || call.arguments().isBlank() ? "{}" : call.arguments());
                    if (!parsed.isObject()) {
                        throw new IllegalArgumentException("not an object");
                    }
                    arguments = (ObjectNode) parsed;
                } catch (Exception e) {
                    String error = e instanceof com.fasterxml.jackson.core.exc.StreamConstraintsException
                            // valid JSON, but a name (e.g. a visual_settings.columns key) or value past the parser's limits
                            ? "The arguments of " + call.name() + " hold a name or value that is too long; names are at most "
                              + dev.tablewright.validation.Identifiers.MAX_LENGTH + " characters."
                            : "The arguments of " + call.name() + " are not a valid JSON object; send them again as one JSON object.";
                    out.emit(new TurnEvent.ToolInputFailed(call.id(), call.name(), Json.MAPPER.getNodeFactory().textNode(clip(call.arguments(), 2000)), error));
                    toolResult(call.id(), errorJson("invalid_arguments", error));
                    record.tool(call.name(), "malformed-arguments", 0);
                    continue;
                }
                out.emit(new TurnEvent.ToolInputAvailable(call.id(), call.name(), arguments));
                if (clientTools.containsKey(call.name())) {
                    deferred.add(new DeferredCall(call.id(), call.name(), DeferredCall.Waiting.CLIENT));
                    record.tool(call.name(), "client", 0);
                    continue;
                }
                if (++run > limits.maxToolCallsPerStep()) {
                    String error = "Skipped: at most " + limits.maxToolCallsPerStep() + " tool calls are run per step. Call it again in your next step.";
                    out.emit(new TurnEvent.ToolFailed(call.id(), error));
                    toolResult(call.id(), errorJson("too_many_calls", error));
                    record.tool(call.name(), "skipped", 0);
                    continue;
                }
                List<ObjectNode> atBound = runServerTool(call.id(), call.name(), arguments, Map.of());
                if (atBound != null) {
                    return atBound;
                }
            }
            return null;
        }

        /** Runs a server-side (or chat-internal) tool and reports it; see {@link #runToolCalls} for the answer. */
        List<ObjectNode> runServerTool(String toolCallId, String name, ObjectNode arguments, Map<String, String> submitted) {
            long started = System.nanoTime();
            if (ChatToolDefinitions.SEARCH_TOOLS_NAME.equals(name)) {
                searchTools(toolCallId, arguments);
                record.tool(name, "ok", System.nanoTime() - started);
                return null;
            }
            if (ChatToolDefinitions.UPDATE_EDITABLE_STATUS_NAME.equals(name)) {
                updateEditable(toolCallId, arguments);
                record.tool(name, "ok", System.nanoTime() - started);
                return null;
            }
            Optional<ToolDefinition> definition = registry.find(name).filter(ToolDefinition::offeredToModel);
            if (definition.isEmpty() || !invoker.knows(name)) {
                String error = "There is no tool named '" + name + "'. Use one of the listed tools, or search_tools to find one.";
                out.emit(new TurnEvent.ToolFailed(toolCallId, error));
                toolResult(toolCallId, errorJson("unknown_tool", error));
                record.tool(name, "unknown", 0);
                return null;
            }
            ToolDefinition tool = definition.get();
            if (tool.takesWorkingConfig() && !arguments.hasNonNull("config") && working.current() != null) {
                arguments.set("config", working.current());
            }
            Map<String, String> sessionValues = new LinkedHashMap<>(submitted);
            // Always: a tool may learn only in its own function that it needs input (the database tools ask for
            // `database` when their function has several data sources), so it needs the saved values either way.
            {
                UserInputPort.Readiness readiness = userInput.check(ownerId, conversationId, tool, arguments, submitted);
                sessionValues = new LinkedHashMap<>(readiness.sessionValues());
                arguments = readiness.arguments();
                if (readiness.missing().isPresent()) {
                    askForInput(toolCallId, name, readiness.missing().get());
                    record.tool(name, "needs-input", System.nanoTime() - started);
                    return null;
                }
            }
            ToolOutcome outcome;
            // Every log line of the call (the invoker's, the tool's when in-process) names the tool.
            StructuredLog.put("toolName", name);
            try {
                outcome = invoker.invoke(new ToolInvocation(name, toolCallId, conversationId, ownerId, arguments, sessionValues));
            } finally {
                StructuredLog.put("toolName", null);
            }
            record.tool(name, outcome.status(), System.nanoTime() - started);
            return switch (outcome.status()) {
                case ToolOutcome.OK -> toolOutput(toolCallId, name, outcome);
                case ToolOutcome.NEEDS_INPUT -> {
                    askForInput(toolCallId, name, outcome.request());
                    yield null;
                }
                default -> {
                    String message = outcome.error() == null ? "the tool failed" : outcome.error().message();
                    out.emit(new TurnEvent.ToolFailed(toolCallId, message));
                    toolResult(toolCallId, Json.write(Json.object().set("error", outcome.error() == null
                            ? Json.object().put("message", message) : ToolOutcomeJson.write(outcome.error()))));
                    yield null;
                }
            };
        }

        /**
         * A tool's ok output: to the client and the model, then into the turn's state by what the tool says it did
         * ({@link ToolOutcome#effect}): a proposed config becomes the working config, an invalid one counts toward
         * the repair bound, a preview becomes the preview card and the draft's state.
         */
        List<ObjectNode> toolOutput(String toolCallId, String name, ToolOutcome outcome) {
            JsonNode output = outcome.output();
            out.emit(new TurnEvent.ToolOutput(toolCallId, output));
            toolResult(toolCallId, ToolResultText.of(output));
            String effect = outcome.effect() == null ? "" : outcome.effect();
            switch (effect) {
                case ToolOutcome.PROPOSED_CONFIG -> {
                    consecutiveInvalid = 0;
                    working.replace(output.get("config"));
                    editable = working.editableFields();
                }
                case ToolOutcome.INVALID_CONFIG -> {
                    if (++consecutiveInvalid > limits.maxRepairs()) {
                        List<ObjectNode> errors = new ArrayList<>();
                        output.path("errors").forEach(e -> errors.add(e.isObject() ? (ObjectNode) e : Json.object().put("message", e.asText())));
                        ObjectNode data = Json.object().put("toolCallId", toolCallId).put("toolName", name);
                        data.set("errors", Json.MAPPER.valueToTree(errors));
                        out.emit(new TurnEvent.Data("validation-errors", toolCallId, data));
                        return errors;
                    }
                }
                case ToolOutcome.PREVIEWED -> {
                    consecutiveInvalid = 0;
                    working.replace(output.get("config"));
                    editable = working.editableFields();
                    ObjectNode preview = ((ObjectNode) output).deepCopy();
                    if (!preview.has("configId") && working.configId() != null) {
                        preview.put("configId", working.configId());
                    }
                    JsonNode previewId = preview.get("previewId");
                    working.previewed(preview);
                    out.emit(new TurnEvent.Data("table-config-preview", previewId == null ? toolCallId : previewId.asText(), preview));
                }
                default -> {
                    // an answer that changes nothing of the config
                }
            }
            return null;
        }

        void searchTools(String toolCallId, ObjectNode arguments) {
            String query = arguments.path("query").asText("");
            int limit = Math.min(5, Math.max(1, arguments.path("limit").asInt(3)));
            Set<String> exclude = new LinkedHashSet<>();
            registry.coreTools(page()).forEach(t -> exclude.add(t.name()));
            exclude.addAll(discovered.keySet());
            exclude.add(ChatToolDefinitions.SEARCH_TOOLS_NAME);
            registry.all().stream().filter(t -> !t.offeredToModel()).forEach(t -> exclude.add(t.name()));
            ObjectNode answer = Json.object();
            ArrayNode found = answer.putArray("tools");
            for (ToolRegistry.Match m : registry.search(query, exclude, limit)) {
                if (m.tool().runsOn() == ToolDefinition.RunsOn.FUNCTION && !invoker.knows(m.tool().name())) {
                    continue;
                }
                discovered.put(m.tool().name(), m.tool());
                found.addObject().put("name", m.tool().name()).put("description", m.tool().description());
            }
            answer.put("note", found.isEmpty() ? "No further tool matched; try other words." : "These tools are callable from your next step.");
            out.emit(new TurnEvent.ToolOutput(toolCallId, answer));
            toolResult(toolCallId, Json.write(answer));
        }

        void updateEditable(String toolCallId, ObjectNode arguments) {
            String field = arguments.path("fieldName").asText(null);
            JsonNode valueNode = arguments.get("value");
            String value = valueNode == null || valueNode.isNull() ? null : valueNode.asText();
            EditableStatus.Result result = editable.update(field, value);
            EditableFieldUpdate update = result.update();
            if (update.success()) {
                editable = result.status();
                working.applySetting(field, update.newValue());
                out.emit(new TurnEvent.Data("editable-field-update", "edit_" + field, json(update)));
            }
            out.emit(new TurnEvent.ToolOutput(toolCallId, json(update)));
            toolResult(toolCallId, Json.write(json(update)));
        }

        /** The answer of update_editable_status: every key, null where there is no value (the page reads all five). */
        private static ObjectNode json(EditableFieldUpdate update) {
            ObjectNode o = Json.object().put("success", update.success());
            o.put("error", update.error());
            o.put("updatedField", update.updatedField());
            o.put("previousValue", update.previousValue());
            o.put("newValue", update.newValue());
            return o;
        }

        void askForInput(String toolCallId, String toolName, UserInputRequirement requirement) {
            String requestId;
            try {
                requestId = userInput.request(ownerId, conversationId, toolCallId, toolName, requirement);
            } catch (RuntimeException e) {
                dev.tablewright.logging.StructuredLog.of(ChatTurn.class).error("input request could not be created", e, "tool", toolName);
                String error = "The input form for " + toolName + " could not be created; try again shortly.";
                out.emit(new TurnEvent.ToolFailed(toolCallId, error));
                toolResult(toolCallId, errorJson("unavailable", error));
                return;
            }
            ObjectNode data = Json.object().put("requestId", requestId).put("toolCallId", toolCallId).put("toolName", toolName)
                    .put("reason", requirement.reason());
            data.set("fields", InputFieldJson.write(requirement.fields()));
            data.put("saveForSession", requirement.saveForSession());
            out.emit(new TurnEvent.Data("user-input-request", requestId, data));
            deferred.add(new DeferredCall(toolCallId, toolName, DeferredCall.Waiting.USER_INPUT));
        }

        /**
         * Tool calls of the last assistant step without a result: resume them before the model is asked again.
         * True when that ended the turn.
         */
        boolean settlePending(List<UiPart.ToolCall> pending) throws ClientGone {
            for (UiPart.ToolCall call : pending) {
                checkClient();
                if (clientTools.containsKey(call.toolName()) || registry.find(call.toolName()).isEmpty()) {
                    String error = "No result came back for this call.";
                    out.emit(new TurnEvent.ToolFailed(call.toolCallId(), error));
                    toolResult(call.toolCallId(), errorJson("no_result", error));
                    continue;
                }
                Optional<UserInputPort.Answer> answer = userInput.answer(ownerId, conversationId, call.toolCallId());
                if (answer.isPresent() && answer.get().pending()) {
                    ToolDefinition tool = registry.get(call.toolName());
                    UserInputRequirement requirement = tool.requiresUserInput() != null ? tool.requiresUserInput()
                            : new UserInputRequirement("Waiting for your input.", List.of(), false, null);
                    ObjectNode data = Json.object().put("requestId", answer.get().requestId()).put("toolCallId", call.toolCallId())
                            .put("toolName", call.toolName()).put("reason", requirement.reason());
                    data.set("fields", InputFieldJson.write(requirement.fields()));
                    data.put("saveForSession", requirement.saveForSession());
                    out.emit(new TurnEvent.Data("user-input-request", answer.get().requestId(), data));
                    deferred.add(new DeferredCall(call.toolCallId(), call.toolName(), DeferredCall.Waiting.USER_INPUT));
                    continue;
                }
                if (answer.isEmpty() || !answer.get().completed()) {
                    String error = "The user did not provide the input this tool needs"
                            + (answer.isPresent() ? " (the request is " + answer.get().status() + ")." : ".");
                    out.emit(new TurnEvent.ToolFailed(call.toolCallId(), error));
                    toolResult(call.toolCallId(), errorJson("input_not_given", error));
                    continue;
                }
                ObjectNode arguments = call.input() != null && call.input().isObject() ? ((ObjectNode) call.input()).deepCopy() : Json.object();
                List<ObjectNode> atBound = runServerTool(call.toolCallId(), call.toolName(), arguments, answer.get().values());
                if (atBound != null) {
                    explainValidationErrors(atBound);
                    return true;
                }
            }
            return false;
        }

        void rememberDiscoveredTools(Conversation conversation) {
            for (ModelMessage m : conversation.messages()) {
                if (m instanceof ModelMessage.Assistant a) {
                    for (ToolCallRequest call : a.toolCalls()) {
                        registry.find(call.name()).ifPresent(t -> {
                            if (!t.isCoreIn(page())) {
                                discovered.put(t.name(), t);
                            }
                        });
                    }
                }
            }
        }

        // ---- endings ----

        /** The repair bound is reached: explain the errors in plain words (no further model call) and end. */
        void explainValidationErrors(List<ObjectNode> errors) {
            out.emit(new TurnEvent.StepStarted());
            StringBuilder text = new StringBuilder("I could not make this change valid after ")
                    .append(limits.maxRepairs() + 1).append(" attempts. What is wrong:");
            for (ObjectNode e : errors) {
                text.append("\n- ");
                if (e.hasNonNull("field")) {
                    text.append(e.get("field").asText()).append(": ");
                }
                text.append(e.path("message").asText());
            }
            text.append("\nTell me how you would like to proceed, or adjust the table by hand.");
            say(text.toString());
            out.emit(new TurnEvent.StepFinished());
            record.outcome = "repair-bound";
            end(Ending.STOP);
        }

        void outOfTime() {
            record.outcome = "out-of-time";
            out.emit(new TurnEvent.StepStarted());
            say("I ran out of time for this turn. Say \"continue\" and I will pick up from here.");
            out.emit(new TurnEvent.StepFinished());
            end(Ending.OTHER);
        }

        void say(String text) {
            String id = TurnEvent.newId("txt");
            out.emit(new TurnEvent.TextStarted(id));
            out.emit(new TurnEvent.TextDelta(id, text));
            out.emit(new TurnEvent.TextEnded(id));
        }

        /**
         * The assistant message's metadata ({@code message.metadata} in useChat): the conversation and, once the
         * model has answered, the turn's token usage.
         */
        ObjectNode metadata() {
            ObjectNode metadata = Json.object();
            if (request.id() != null) {
                metadata.put("conversationId", request.id());
            }
            metadata.putObject("usage").put("inputTokens", record.usage.promptTokens())
                    .put("outputTokens", record.usage.completionTokens()).put("totalTokens", record.usage.total());
            return metadata;
        }

        void end(Ending reason) {
            out.emit(new TurnEvent.Finished(reason, metadata()));
            settle();
            out.close();
        }

        /** Hands the draft to {@code onEnd}, once. */
        void settle() {
            if (!settled) {
                settled = true;
                try {
                    onEnd.accept(working.draft());
                } catch (RuntimeException e) {
                    dev.tablewright.logging.StructuredLog.of(ChatTurn.class).error("the turn's end could not be handled", e);
                }
            }
        }

        void fail(String plainMessage) {
            if (out.closed() || out.clientGone()) {
                return;
            }
            out.emit(new TurnEvent.Failed(plainMessage));
            end(Ending.ERROR);
        }

        void checkClient() throws ClientGone {
            if (out.clientGone()) {
                throw new ClientGone();
            }
        }

        void toolResult(String toolCallId, String content) {
            messages.add(new ModelMessage.ToolResult(toolCallId, clip(content, MAX_TOOL_RESULT_CHARS)));
        }

        String page() {
            return request.context().page();
        }

        String messageId() {
            List<UiMessage> all = request.messages();
            UiMessage last = all.get(all.size() - 1);
            if ("assistant".equals(last.role()) && last.id() != null) {
                return last.id();
            }
            return request.messageId() != null && "regenerate-message".equals(request.trigger())
                    ? request.messageId() : TurnEvent.newId("msg");
        }
    }

    private static String errorJson(String code, String message) {
        return Json.write(Map.of("error", Map.of("code", code, "message", message)));
    }

    private static String clip(String s, int max) {
        if (s == null) {
            return "";
        }
        return s.length() <= max ? s : s.substring(0, max) + "… (truncated)";
    }
}
