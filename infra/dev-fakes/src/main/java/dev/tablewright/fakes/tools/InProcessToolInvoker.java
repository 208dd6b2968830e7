package dev.tablewright.fakes.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.toolcall.EnvelopeToolInvoker;
import dev.tablewright.agent.toolcall.ToolInvoker;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.toolcontract.Tool;
import dev.tablewright.toolcontract.ToolExecution;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.userinput.UserInputGate;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Runs the tools in this JVM: the invoker contract ({@link EnvelopeToolInvoker}) with each tool's envelope handed to
 * what answers it here, only without the bytes and the network in between. The tests and benchmarks give it the tools
 * themselves (run as their Lambda runs them: {@link ToolExecution} behind the {@link UserInputGate}); the local stack
 * gives it each tool's function of template.yaml, run in-process. No function's jar holds it.
 */
public final class InProcessToolInvoker implements ToolInvoker {

    /** What answers one tool's invocation envelope in this JVM. */
    @FunctionalInterface
    public interface Runner {
        /** @throws EnvelopeToolInvoker.FunctionFailed the runner failed without an answer */
        JsonNode answer(ObjectNode envelope) throws EnvelopeToolInvoker.FunctionFailed;
    }

    private static final StructuredLog LOG = StructuredLog.of(InProcessToolInvoker.class);

    private final EnvelopeToolInvoker<Runner> calls;

    /** The tools themselves, each run as its Lambda runs it. */
    public InProcessToolInvoker(Collection<? extends Tool> tools) {
        this(runners(tools));
    }

    /** @param runnerByTool tool name → what answers its envelope here */
    public InProcessToolInvoker(Map<String, Runner> runnerByTool) {
        this.calls = new EnvelopeToolInvoker<>(runnerByTool, Runner::answer);
    }

    private static Map<String, Runner> runners(Collection<? extends Tool> tools) {
        Map<String, Runner> runners = new LinkedHashMap<>();
        ToolExecution.byName(tools, UserInputGate.INSTANCE, (tool, failure) -> LOG.error("tool failed", failure, "tool", tool.name()))
                // the tool gets an envelope of its own, as a function gets its own bytes: what it changes stays with it
                .forEach((name, tool) -> runners.put(name, envelope -> tool.answer(envelope.deepCopy())));
        return runners;
    }

    @Override
    public ToolOutcome invoke(ToolInvocation invocation) {
        return calls.invoke(invocation);
    }

    @Override
    public boolean knows(String toolName) {
        return calls.knows(toolName);
    }
}
