package dev.tablewright.agent;

import dev.tablewright.agent.memory.MemoryBudget;
import dev.tablewright.agent.memory.Transcript;
import dev.tablewright.agent.memory.TranscriptTurn;
import dev.tablewright.agent.memory.TurnDigest;
import dev.tablewright.agent.model.ChatModel;
import dev.tablewright.agent.model.FinishReason;
import dev.tablewright.agent.model.ModelFailure;
import dev.tablewright.agent.model.ModelMessage;
import dev.tablewright.agent.model.ModelStep;
import dev.tablewright.agent.model.ToolCallRequest;
import dev.tablewright.agent.prompt.SystemPrompt;
import dev.tablewright.agent.toolcall.ToolInvoker;
import dev.tablewright.agent.toolcall.UserInputPort;
import dev.tablewright.logging.Metrics;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.toolcontract.ToolRegistry;

import dev.tablewright.validation.ValidationError;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One agent turn: steps until the model answers without a tool call, within the turn's budgets (steps, tokens,
 * output, time) and the repair bound. Each step is a model call ({@link ModelCall}) and the tool calls it made
 * ({@link ToolDispatch}, through the {@link InputStep}); the turn pauses when a call must be answered elsewhere (a
 * client-side tool, or the user's input) and is resumed by the next turn without asking the model again.
 *
 * <p>It knows no client protocol: what happens goes to an {@link AgentOutput} as {@link AgentEvent}s, and what to
 * remember comes back as an {@link AgentResult}. The model is sent the system prompt (with the working config and
 * where it stands), the earlier turns as the {@link MemoryBudget} allows, and this turn whole.
 */
public final class AgentLoop {

    private static final StructuredLog LOG = StructuredLog.of(AgentLoop.class);

    private final ToolRegistry registry;
    private final TurnLimits limits;
    private final MemoryBudget budget;
    private final Clock clock;
    private final ModelCall modelCall;
    private final InputStep inputStep;
    private final ToolDispatch tools;
    private TurnObserver observer = TurnObserver.NONE;
    private String metricsNamespace = Metrics.DEFAULT_NAMESPACE;

    public AgentLoop(ChatModel model, ToolRegistry registry, List<InternalTool> ownTools, ToolInvoker invoker,
                     UserInputPort userInput, TurnLimits limits, Clock clock) {
        this(model, registry, ownTools, invoker, userInput, limits, MemoryBudget.DEFAULT, clock);
    }

    /**
     * @param registry the tools the door offers (the catalogue's {@code offeredOn} the door): all the model is
     *                 offered, up front or through the catalogue search
     * @param ownTools the tools that run inside the agent ({@link InternalTool#standard}), each with its definition
     *                 in the registry; the others run behind the invoker
     */
    public AgentLoop(ChatModel model, ToolRegistry registry, List<InternalTool> ownTools, ToolInvoker invoker,
                     UserInputPort userInput, TurnLimits limits, MemoryBudget budget, Clock clock) {
        this.registry = registry;
        this.limits = limits;
        this.budget = budget;
        this.clock = clock;
        this.modelCall = new ModelCall(model, limits, clock);
        this.inputStep = new InputStep(userInput);
        this.tools = new ToolDispatch(registry, invoker, inputStep, limits, ownTools);
    }

    /** Every turn run from now on is heard by {@code observer} (tracing); returns this loop. */
    public AgentLoop observedBy(TurnObserver observer) {
        this.observer = observer;
        return this;
    }

    /** The CloudWatch namespace of the turns' metric records (the stack's MetricsNamespace); returns this loop. */
    public AgentLoop publishingMetricsTo(String namespace) {
        this.metricsNamespace = namespace;
        return this;
    }

    /** The pages a turn can sit beside: those whose core toolset is not empty (e.g. {@code tables}). */
    public Set<String> pages() {
        return registry.contexts();
    }

    /**
     * Runs the turn to its end. Never throws for anything the model, a tool or the listener does: every ending is
     * one {@link AgentEvent.Stopped}, after a {@link AgentEvent.Failed} when it failed.
     *
     * @param invocationDeadline the platform's deadline when known (the turn stops {@link TurnLimits#deadlineMargin} before it)
     */
    public AgentResult run(AgentInput input, AgentOutput out, Optional<Instant> invocationDeadline) {
        Instant deadline = clock.instant().plus(limits.maxTurnDuration());
        if (invocationDeadline.isPresent() && invocationDeadline.get().minus(limits.deadlineMargin()).isBefore(deadline)) {
            deadline = invocationDeadline.get().minus(limits.deadlineMargin());
        }
        TurnState s = new TurnState(input, out, deadline, budget.context(input.history()));
        s.observed = observer.turnStarted(input.conversationId());
        try {
            s.emit(new AgentEvent.TurnStarted());
            s.emitWorkingConfig();
            steps(s);
        } catch (TurnState.Interrupted e) {
            s.stop(e.reason);
        } catch (RuntimeException e) {
            LOG.error("agent turn failed", e);
            if (!out.clientGone()) {
                s.emit(new AgentEvent.Failed("Something went wrong on our side while answering. Please try again."));
            }
            s.stop(StopReason.INTERNAL_ERROR);
        } finally {
            s.record.log(metricsNamespace, s.earlier, input.ownerId());
            s.observed.turnEnded(s.isStopped() ? s.record.outcome : StopReason.INTERNAL_ERROR);
        }
        TranscriptTurn turn = new TranscriptTurn(input.turnKey(), s.messages, TurnDigest.of(s.messages));
        Transcript kept = budget.compact(input.history().plus(turn));
        StopReason reason = s.isStopped() ? s.record.outcome : StopReason.INTERNAL_ERROR;
        return new AgentResult(reason, s.working.draft(), kept, s.record.usage,
                reason == StopReason.PAUSED ? s.deferred : List.of(), input.turnKey());
    }

    private void steps(TurnState s) throws TurnState.Interrupted {
        s.input.history().turns().forEach(t -> rememberDiscoveredTools(s, t.messages()));
        switch (s.input.start()) {
            case AgentInput.NewMessage m -> {
                if (!m.text().isEmpty()) {
                    s.messages.add(new ModelMessage.User(m.text()));
                }
            }
            case AgentInput.Resume r -> {
                s.messages.addAll(r.soFar());
                rememberDiscoveredTools(s, r.soFar());
                if (!r.pending().isEmpty()) {
                    if (inputStep.resume(s, r.pending(), tools)) {
                        explainRepairErrors(s);
                        return;
                    }
                    if (!s.deferred.isEmpty()) {
                        s.stop(StopReason.PAUSED);
                        return;
                    }
                }
            }
        }
        for (int step = 1; ; step++) {
            s.checkClient();
            if (step > limits.maxSteps()) {
                s.say("I stopped here: this turn reached its limit of " + limits.maxSteps()
                        + " steps. Say \"continue\" and I will pick up from here.");
                s.stop(StopReason.MAX_STEPS);
                return;
            }
            if (!clock.instant().isBefore(s.deadline)) {
                outOfTime(s);
                return;
            }
            if (s.record.usage.total() >= limits.maxTurnTokens()) {
                s.say("I stopped here: this turn used its token budget. Say \"continue\" and I will pick up from here.");
                s.stop(StopReason.TOKEN_BUDGET);
                return;
            }
            s.emit(new AgentEvent.StepStarted());
            s.record.steps++;
            ModelStep answer;
            try {
                answer = modelCall.call(s, modelMessages(s), tools.modelTools(s));
            } catch (TurnState.OutputCapReached capped) {
                s.emit(new AgentEvent.StepFinished());
                s.say("I stopped here: my answer grew past this turn's output limit.");
                s.stop(StopReason.OUTPUT_CAP);
                return;
            } catch (TurnState.Interrupted interrupted) {
                s.emit(new AgentEvent.StepFinished()); // the step ends where it was cut
                throw interrupted;
            } catch (ModelFailure failure) {
                if (failure.kind() == ModelFailure.Kind.OUT_OF_TIME) {
                    s.emit(new AgentEvent.StepFinished());
                    outOfTime(s);
                } else {
                    s.record.modelFailure = failure.kind();
                    s.emit(new AgentEvent.Failed(failure.getMessage()));
                    s.emit(new AgentEvent.StepFinished());
                    s.stop(StopReason.MODEL_ERROR);
                }
                return;
            }
            s.messages.add(new ModelMessage.Assistant(answer.text(), answer.toolCalls()));
            if (answer.toolCalls().isEmpty()) {
                s.emit(new AgentEvent.StepFinished());
                s.stop(answer.finishReason() == FinishReason.LENGTH ? StopReason.MODEL_LENGTH : StopReason.COMPLETED);
                return;
            }
            boolean atBound = tools.runStep(s, answer.toolCalls());
            s.emit(new AgentEvent.StepFinished());
            if (atBound) {
                explainRepairErrors(s);
                return;
            }
            if (!s.deferred.isEmpty()) {
                s.stop(StopReason.PAUSED);
                return;
            }
        }
    }

    /** What the model is sent this step: the system prompt, the earlier turns the budget keeps, this turn whole. */
    private List<ModelMessage> modelMessages(TurnState s) {
        List<ModelMessage> messages = new ArrayList<>();
        messages.add(new ModelMessage.System(systemPrompt(s)));
        messages.addAll(s.earlier.recent());
        messages.addAll(MemoryBudget.paired(s.messages));
        return messages;
    }

    private String systemPrompt(TurnState s) {
        List<String> core = new ArrayList<>();
        registry.coreTools(s.page()).forEach(t -> core.add(t.name()));
        int discoverable = registry.all().size() - core.size();
        return SystemPrompt.of(s.page(), s.working.summary(), s.editable, core, Math.max(0, discoverable))
                .withEarlierTurns(s.earlier.earlier(), s.earlier.notShown()).render();
    }

    private void rememberDiscoveredTools(TurnState s, List<ModelMessage> messages) {
        for (ModelMessage m : messages) {
            if (m instanceof ModelMessage.Assistant a) {
                for (ToolCallRequest call : a.toolCalls()) {
                    registry.find(call.name()).ifPresent(t -> {
                        if (!t.isCoreIn(s.page())) {
                            s.discovered.put(t.name(), t);
                        }
                    });
                }
            }
        }
    }

    /** The repair bound is reached: explain the errors in plain words (no further model call) and stop. */
    private void explainRepairErrors(TurnState s) {
        s.emit(new AgentEvent.StepStarted());
        StringBuilder text = new StringBuilder("I could not make this change valid after ")
                .append(limits.maxRepairs() + 1).append(" attempts. What is wrong:");
        for (ValidationError e : s.repairErrors) {
            text.append("\n- ");
            if (e.field() != null) {
                text.append(e.field()).append(": ");
            }
            text.append(e.message() == null ? "" : e.message());
        }
        text.append("\nTell me how you would like to proceed, or adjust the table by hand.");
        s.say(text.toString());
        s.emit(new AgentEvent.StepFinished());
        s.stop(StopReason.REPAIR_BOUND);
    }

    private static void outOfTime(TurnState s) {
        s.emit(new AgentEvent.StepStarted());
        s.say("I ran out of time for this turn. Say \"continue\" and I will pick up from here.");
        s.emit(new AgentEvent.StepFinished());
        s.stop(StopReason.OUT_OF_TIME);
    }
}
