package dev.tablewright.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.catalogue.DataSources;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.operations.OperationResult;
import dev.tablewright.toolcontract.Tool;
import dev.tablewright.toolcontract.ToolArguments;
import dev.tablewright.toolcontract.ToolEffect;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;

import java.util.List;

/**
 * The shared answer of the config tools: {@code ok} with the operation's result for valid and invalid configs alike
 * ({@code valid: false} with field-level errors is a normal answer the model repairs from, argument errors
 * included); {@code error invalid_arguments} only when there are no arguments to read; never an exception.
 */
abstract class OperationTool implements Tool {

    private static final StructuredLog LOG = StructuredLog.of(OperationTool.class);

    /**
     * Reads the arguments and runs; returns null when the arguments had errors (they are in {@code args}).
     *
     * @param dataSource the data source chosen for the conversation (its saved {@code database}), or null
     */
    protected abstract OperationResult run(ToolArguments args, String dataSource);

    private static String dataSource(ToolInvocation invocation) {
        String saved = invocation.sessionValues() == null ? null : invocation.sessionValues().get(DataSources.FIELD);
        if (saved != null && !saved.isBlank()) {
            return saved;
        }
        com.fasterxml.jackson.databind.JsonNode argument = invocation.arguments().get(DataSources.FIELD);
        return argument != null && argument.isTextual() ? argument.textValue() : null;
    }

    @Override
    public final ToolOutcome execute(ToolInvocation invocation) {
        if (invocation == null || invocation.arguments() == null) {
            return ToolOutcome.error(ErrorCode.INVALID_ARGUMENTS, "arguments are missing: " + definition().name()
                    + " takes an object with the fields of its JSON Schema");
        }
        try {
            ToolArguments args = ToolArguments.of(invocation);
            OperationResult result = run(args, dataSource(invocation));
            if (result == null || !args.ok()) {
                result = OperationResult.invalid(args.errors(), List.of());
            }
            ObjectNode answer = result.toJson();
            return ToolOutcome.ok(answer, result.valid() ? new ToolEffect.ProposedConfig(answer.get("config"))
                    : new ToolEffect.InvalidConfig(result.errors()));
        } catch (RuntimeException e) {
            LOG.error("tool failed", e, "tool", definition().name());
            return ToolOutcome.error(ErrorCode.INTERNAL, definition().name() + " failed unexpectedly; the config was not changed");
        }
    }
}
