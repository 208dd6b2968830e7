package dev.tablewright.toolcontract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.failure.DomainFailure;
import dev.tablewright.failure.ErrorCode;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A tool run as every runner runs it: its Lambda ({@code dev.tablewright.lambda.ToolFunction}) and the in-process
 * invoker of the tests and benchmarks. The {@link ExecutionGate} first (each runner passes the user-input lifecycle's
 * {@code UserInputGate}: a tool whose required values are in neither its arguments nor the session values answers
 * {@code needs_input} and does not run), then the tool with what the gate admitted. A {@link DomainFailure} the tool
 * lets through is answered as {@link ToolFailures} maps it; anything else it throws is an {@code internal} error with a
 * plain message, its detail handed to the runner's {@link FailureReport} (the domain writes no log), never to the
 * model. Never throws.
 */
public final class ToolExecution {

    /** Where the detail of a tool's unexpected failure goes: the runner's log. */
    @FunctionalInterface
    public interface FailureReport {
        void unexpected(ToolDefinition tool, Throwable failure);
    }

    private final Tool tool;
    private final ToolDefinition definition;
    private final ExecutionGate gate;
    private final FailureReport failures;

    public ToolExecution(Tool tool, ExecutionGate gate, FailureReport failures) {
        this.tool = tool;
        this.definition = tool.definition();
        this.gate = gate;
        this.failures = failures;
    }

    /** Each tool by its name, behind the same gate: what an in-process runner of several tools holds. */
    public static Map<String, ToolExecution> byName(Collection<? extends Tool> tools, ExecutionGate gate, FailureReport failures) {
        Map<String, ToolExecution> out = new LinkedHashMap<>();
        for (Tool t : tools) {
            out.put(t.definition().name(), new ToolExecution(t, gate, failures));
        }
        return out;
    }

    public ToolDefinition definition() {
        return definition;
    }

    /** The gate, then the tool; every failure answered as an error outcome. */
    public ToolOutcome run(ToolInvocation invocation) {
        try {
            var gated = gate.check(definition, invocation);
            if (gated.isPresent()) {
                return gated.get();
            }
            ToolOutcome outcome = tool.execute(gate.admit(definition, invocation));
            if (outcome == null) {
                throw new IllegalStateException("tool answered no outcome");
            }
            return outcome;
        } catch (DomainFailure e) { // a tool that let one through: the same answer it would have given
            return ToolFailures.outcome(e);
        } catch (Exception | StackOverflowError | OutOfMemoryError e) {
            failures.unexpected(definition, e);
            return ToolOutcome.error(ErrorCode.INTERNAL, "the tool " + definition.name()
                    + " failed unexpectedly; the details are in its log");
        }
    }

    /**
     * What a tool's function answers to an invocation envelope: the envelope decoded ({@link InvocationDecoder}: an
     * envelope that cannot reach the tool answers {@code invalid_arguments} or {@code unknown_tool}), then {@link #run},
     * written by {@link ToolOutcomeJson}.
     */
    public ObjectNode answer(JsonNode envelope) {
        ToolOutcome outcome;
        try {
            outcome = run(InvocationDecoder.decode(envelope, definition));
        } catch (InvalidInvocation e) {
            outcome = ToolOutcome.error(e.error());
        }
        return ToolOutcomeJson.write(outcome);
    }
}
