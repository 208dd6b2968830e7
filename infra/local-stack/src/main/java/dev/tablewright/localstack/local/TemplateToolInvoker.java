package dev.tablewright.localstack.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.toolcall.EnvelopeToolInvoker;
import dev.tablewright.agent.toolcall.ToolInvoker;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;

import java.util.Map;

/**
 * The local stand-in for the chat function's Lambda {@code Invoke} of a tool: the transport of the invoker contract
 * ({@link EnvelopeToolInvoker}) that hands the invocation envelope to the tool's function of template.yaml, run
 * in-process, and reads its answer back: the same envelope the tool Lambda reads and writes in AWS.
 */
public final class TemplateToolInvoker implements ToolInvoker {

    private final EnvelopeToolInvoker<InProcessFunction> calls;

    /** @param functionByTool tool name → its function (from the chat function's TOOL_FUNCTION_* variables) */
    public TemplateToolInvoker(Map<String, InProcessFunction> functionByTool) {
        this.calls = new EnvelopeToolInvoker<>(functionByTool, TemplateToolInvoker::send);
    }

    @Override
    public boolean knows(String toolName) {
        return calls.knows(toolName);
    }

    @Override
    public ToolOutcome invoke(ToolInvocation invocation) {
        return calls.invoke(invocation);
    }

    /** In this JVM nothing stands between the chat and the function: whatever its handler throws is a function error. */
    private static JsonNode send(InProcessFunction function, ObjectNode envelope) throws EnvelopeToolInvoker.FunctionFailed {
        try {
            return function.invoke(envelope);
        } catch (Exception e) {
            throw new EnvelopeToolInvoker.FunctionFailed(function.logicalId() + " failed", e);
        }
    }
}
