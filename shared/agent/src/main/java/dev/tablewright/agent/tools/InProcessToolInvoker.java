package dev.tablewright.agent.tools;

import dev.tablewright.logging.StructuredLog;
import dev.tablewright.tool.Tool;
import dev.tablewright.tool.ToolInvocation;
import dev.tablewright.tool.ToolOutcome;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/** Runs the tools in this JVM (local stack and tests): the same {@link Tool} code the tool Lambdas run. */
public final class InProcessToolInvoker implements ToolInvoker {

    private static final StructuredLog LOG = StructuredLog.of(InProcessToolInvoker.class);

    private final Map<String, Tool> tools = new LinkedHashMap<>();

    public InProcessToolInvoker(Collection<? extends Tool> tools) {
        for (Tool t : tools) {
            this.tools.put(t.definition().name(), t);
        }
    }

    @Override
    public ToolOutcome invoke(ToolInvocation invocation) {
        Tool tool = tools.get(invocation.tool());
        if (tool == null) {
            return ToolOutcome.error("unknown_tool", "no tool named '" + invocation.tool() + "' is available");
        }
        try {
            return tool.execute(invocation);
        } catch (RuntimeException e) {
            LOG.error("tool threw", e, "tool", invocation.tool());
            return ToolOutcome.error("internal", "the tool failed unexpectedly");
        }
    }

    @Override
    public boolean knows(String toolName) {
        return tools.containsKey(toolName);
    }
}
