package dev.tablewright.fakes.tools;

import dev.tablewright.agent.toolcall.EnvelopeToolInvoker;
import dev.tablewright.agent.toolcall.ToolInvoker;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.toolcontract.Tool;
import dev.tablewright.toolcontract.ToolExecution;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.userinput.UserInputGate;

import java.util.Collection;

/**
 * Runs the tools in this JVM (tests and benchmarks): the invoker contract ({@link EnvelopeToolInvoker}) with the tool
 * run as its Lambda runs it ({@link ToolExecution} behind the {@link UserInputGate}), only without the bytes and the
 * network in between. No function's jar holds it.
 */
public final class InProcessToolInvoker implements ToolInvoker {

    private static final StructuredLog LOG = StructuredLog.of(InProcessToolInvoker.class);

    private final EnvelopeToolInvoker<ToolExecution> calls;

    public InProcessToolInvoker(Collection<? extends Tool> tools) {
        // the tool gets an envelope of its own, as a function gets its own bytes: what it changes stays with it
        this.calls = new EnvelopeToolInvoker<>(ToolExecution.byName(tools, UserInputGate.INSTANCE,
                (tool, failure) -> LOG.error("tool failed", failure, "tool", tool.name())),
                (tool, envelope) -> tool.answer(envelope.deepCopy()));
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
