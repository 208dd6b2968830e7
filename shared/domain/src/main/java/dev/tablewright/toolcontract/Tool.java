package dev.tablewright.toolcontract;

/** A tool's behaviour. Implementations never throw for bad input: they answer an error outcome. */
public interface Tool {
    ToolDefinition definition();

    ToolOutcome execute(ToolInvocation invocation);
}
