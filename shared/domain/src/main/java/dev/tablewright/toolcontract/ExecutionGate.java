package dev.tablewright.toolcontract;

import java.util.Optional;

/**
 * A check that runs before a tool executes. When it answers an outcome (typically {@code needs_input}: the
 * tool's {@code requiresUserInput} is not met by its arguments and the session values), that outcome is
 * the answer and the tool does not run. The user-input lifecycle's gate implements this.
 */
@FunctionalInterface
public interface ExecutionGate {

    Optional<ToolOutcome> check(ToolDefinition tool, ToolInvocation invocation);

    /**
     * The invocation the tool runs with once {@link #check} let it through: e.g. with the saved input values
     * merged into its arguments. Default: unchanged.
     */
    default ToolInvocation admit(ToolDefinition tool, ToolInvocation invocation) {
        return invocation;
    }
}
