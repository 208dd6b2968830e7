package dev.tablewright.agent.toolcall;

import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;

/**
 * Runs a server-side tool with the invocation envelope (docs/tools.md). Never throws: a tool that cannot be reached or
 * fails answers an error outcome the model can read. Every implementation keeps the one contract of
 * {@link EnvelopeToolInvoker} and brings only its transport.
 */
public interface ToolInvoker {

    ToolOutcome invoke(ToolInvocation invocation);

    /** Whether this invoker can run the named tool at all. */
    boolean knows(String toolName);
}
