package dev.tablewright.agent;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.model.ToolCallRequest;
import dev.tablewright.agent.toolcall.ToolInvoker;
import dev.tablewright.agent.toolcall.UserInputPort;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.toolcontract.ToolRegistry;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The lookups of one step ({@link ToolDefinition#lookup}) invoked at once, at most {@link #AT_ONCE} at a time, before
 * the step reaches them. The step still takes its calls one by one in the model's order ({@link ToolDispatch}) and at
 * a lookup takes its answer from here instead of invoking it, so the stream and the stored turn are what they would
 * be one call after the other (a call's arguments, its result, then the next call's), only sooner: a lookup's events
 * go out once it and every call before it have answered. Only the lookups before the first call that is none run
 * ahead: that call may change the working config, and it and what follows keep their order.
 */
final class StepLookups implements AutoCloseable {

    /** How many lookups of one step are invoked at a time. */
    static final int AT_ONCE = 4;

    /** Nothing run ahead: every call is invoked when the step reaches it. */
    static final StepLookups NONE = new StepLookups(Map.of(), null);

    /**
     * A lookup's answer, run ahead.
     *
     * @param readiness     what the user-input check said; the lookup was invoked only when nothing is missing
     * @param workingConfig the working config it was sent (null when it takes none)
     * @param outcome       its answer; null when it was not invoked (input is missing)
     * @param nanos         how long the check and the call took
     */
    record Answer(UserInputPort.Readiness readiness, ObjectNode workingConfig, ToolOutcome outcome, long nanos) {
    }

    private final Map<String, Future<Answer>> byCallId;
    private final ExecutorService workers;

    private StepLookups(Map<String, Future<Answer>> byCallId, ExecutorService workers) {
        this.byCallId = byCallId;
        this.workers = workers;
    }

    /**
     * Starts the step's leading lookups, when there are two or more to run at once; walks {@code calls} as
     * {@link ToolDispatch#runStep} does (malformed arguments and client tools are not run, at most
     * {@code maxRun} are), up to the first call that is not a lookup. A lookup that runs inside the agent (the tool
     * search) runs in its turn: it has no invoke to wait for.
     */
    static StepLookups start(TurnState s, List<ToolCallRequest> calls, ToolRegistry registry, Set<String> internal,
                             ToolInvoker invoker, InputStep input, int maxRun) {
        List<ToolCallRequest> ahead = new ArrayList<>();
        List<ObjectNode> arguments = new ArrayList<>();
        List<ToolDefinition> tools = new ArrayList<>();
        int run = 0;
        for (ToolCallRequest call : calls) {
            ObjectNode parsed;
            try {
                parsed = ToolDispatch.arguments(call);
            } catch (Exception e) {
                continue;
            }
            if (s.clientTools.containsKey(call.name())) {
                continue;
            }
            Optional<ToolDefinition> tool = registry.find(call.name());
            if (++run > maxRun || tool.isEmpty() || !tool.get().lookup()) {
                break;
            }
            if (internal.contains(call.name())) {
                continue;
            }
            if (!invoker.knows(call.name())) {
                break;
            }
            ahead.add(call);
            arguments.add(parsed);
            tools.add(tool.get());
        }
        if (ahead.size() < 2) {
            return NONE;
        }
        AtomicInteger made = new AtomicInteger();
        ExecutorService workers = Executors.newFixedThreadPool(Math.min(AT_ONCE, ahead.size()), task -> {
            Thread t = new Thread(task, "lookup-" + made.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        Map<String, Future<Answer>> byCallId = new LinkedHashMap<>();
        for (int i = 0; i < ahead.size(); i++) {
            ToolCallRequest call = ahead.get(i);
            ToolDefinition tool = tools.get(i);
            ObjectNode args = arguments.get(i);
            // a copy as it stands now: the step compares it with the working config when it reaches the call
            ObjectNode working = tool.takesWorkingConfig() && s.working.current() != null ? s.working.current().deepCopy() : null;
            byCallId.putIfAbsent(call.id(), workers.submit(StructuredLog.carrying(
                    () -> lookUp(s, call.id(), tool, args, working, invoker, input))));
        }
        workers.shutdown();
        return new StepLookups(byCallId, workers);
    }

    private static Answer lookUp(TurnState s, String toolCallId, ToolDefinition tool, ObjectNode arguments,
                                 ObjectNode working, ToolInvoker invoker, InputStep input) {
        long started = System.nanoTime();
        UserInputPort.Readiness readiness = input.check(s, tool, arguments, Map.of());
        if (readiness.missing().isPresent()) {
            return new Answer(readiness, working, null, System.nanoTime() - started);
        }
        StructuredLog.put("toolName", tool.name());
        ToolOutcome outcome = invoker.invoke(new ToolInvocation(tool.name(), toolCallId, s.input.conversationId(),
                s.input.ownerId(), readiness.arguments(), new LinkedHashMap<>(readiness.sessionValues()), null, working));
        return new Answer(readiness, working, outcome, System.nanoTime() - started);
    }

    /**
     * The answer of the call run ahead, waited for; empty when it was not run ahead, or was sent a working config
     * that an earlier call of the step has since replaced (the step then invokes it itself, with the new one).
     *
     * @param workingConfig the working config the call takes now (null when it takes none)
     */
    Optional<Answer> take(String toolCallId, ObjectNode workingConfig) {
        Future<Answer> future = byCallId.isEmpty() ? null : byCallId.remove(toolCallId);
        if (future == null) {
            return Optional.empty();
        }
        Answer answer;
        try {
            answer = future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (ExecutionException e) {
            // what the call would have thrown on the turn's thread
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(e.getCause());
        }
        return Objects.equals(answer.workingConfig(), workingConfig) ? Optional.of(answer) : Optional.empty();
    }

    /** The step ended (or was cut short): lookups not yet started are dropped; those under way end on their own. */
    @Override
    public void close() {
        if (workers == null) {
            return;
        }
        byCallId.values().forEach(f -> f.cancel(false));
        byCallId.clear();
        workers.shutdown();
    }
}
