package dev.tablewright.tools;

import dev.tablewright.logging.StructuredLog;
import dev.tablewright.operations.OperationResult;
import dev.tablewright.tool.Tool;
import dev.tablewright.tool.ToolArguments;
import dev.tablewright.tool.ToolInvocation;
import dev.tablewright.tool.ToolOutcome;

import java.util.List;

/**
 * The shared answer of the config tools: {@code ok} with the operation's result for valid and invalid configs alike
 * ({@code valid: false} with field-level errors is a normal answer the model repairs from, argument errors
 * included); {@code error invalid_arguments} only when there are no arguments to read; never an exception.
 */
abstract class OperationTool implements Tool {

    private static final StructuredLog LOG = StructuredLog.of(OperationTool.class);

    /** Reads the arguments and runs; returns null when the arguments had errors (they are in {@code args}). */
    protected abstract OperationResult run(ToolArguments args);

    @Override
    public final ToolOutcome execute(ToolInvocation invocation) {
        if (invocation == null || invocation.arguments() == null) {
            return ToolOutcome.error("invalid_arguments", "arguments are missing: " + definition().name()
                    + " takes an object with the fields of its JSON Schema");
        }
        try {
            ToolArguments args = ToolArguments.of(invocation);
            OperationResult result = run(args);
            if (result == null || !args.ok()) {
                result = OperationResult.invalid(args.errors(), List.of());
            }
            return ToolOutcome.ok(result.toJson());
        } catch (RuntimeException e) {
            LOG.error("tool failed", e, "tool", definition().name());
            return ToolOutcome.error("internal", definition().name() + " failed unexpectedly; the config was not changed");
        }
    }
}
