package dev.tablewright.localstack.local;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.agent.tools.ToolInvoker;
import dev.tablewright.tool.ToolOutcomeJson;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.logging.TraceContext;
import dev.tablewright.tool.ToolInvocation;
import dev.tablewright.tool.ToolOutcome;

import java.util.Map;

/**
 * The local stand-in for the chat function's Lambda {@code Invoke} of a tool: the invocation envelope goes to the
 * tool's function of template.yaml, run in-process, and its answer comes back as the envelope — the same bytes
 * the tool Lambda reads and writes in AWS.
 */
public final class TemplateToolInvoker implements ToolInvoker {

    private static final StructuredLog LOG = StructuredLog.of(TemplateToolInvoker.class);

    private final Map<String, InProcessFunction> functionByTool;

    /** @param functionByTool tool name → its function (from the chat function's TOOL_FUNCTION_* variables) */
    public TemplateToolInvoker(Map<String, InProcessFunction> functionByTool) {
        this.functionByTool = Map.copyOf(functionByTool);
    }

    @Override
    public boolean knows(String toolName) {
        return functionByTool.containsKey(toolName);
    }

    @Override
    public ToolOutcome invoke(ToolInvocation invocation) {
        InProcessFunction function = functionByTool.get(invocation.tool());
        if (function == null) {
            return ToolOutcome.error("unknown_tool", "no tool named '" + invocation.tool() + "' is available");
        }
        try {
            // the turn's trace in the envelope, as LambdaToolInvoker sends it
            ToolInvocation sent = invocation.traceparent() != null ? invocation
                    : invocation.withTraceparent(TraceContext.outgoing().orElse(null));
            JsonNode answer = function.invoke(Json.MAPPER.valueToTree(sent));
            return ToolOutcomeJson.read(answer);
        } catch (Exception e) {
            LOG.error("tool function failed", e, "tool", invocation.tool());
            return ToolOutcome.error("internal", "the tool failed unexpectedly");
        }
    }
}
