package dev.tablewright.tools;

import dev.tablewright.config.TableConfig;
import dev.tablewright.operations.OperationResult;
import dev.tablewright.tool.ToolArguments;

import java.util.function.Function;

/**
 * The apply_*_change tools: each reads {@code config}, {@code operation} (one of the change's operations) and the
 * change's own spec, in that order, and applies the change once every argument read cleanly.
 */
abstract class ChangeTool<O extends Enum<O>, S> extends OperationTool {

    /** A change of the operations package: {@code apply(config, operation, spec)}. */
    interface Change<O, S> {
        OperationResult apply(TableConfig config, O operation, S spec);
    }

    private final Class<O> operations;
    private final Function<ToolArguments, S> readSpec;
    private final Change<O, S> change;

    ChangeTool(Class<O> operations, Function<ToolArguments, S> readSpec, Change<O, S> change) {
        this.operations = operations;
        this.readSpec = readSpec;
        this.change = change;
    }

    @Override
    protected final OperationResult run(ToolArguments args) {
        TableConfig config = args.config("config");
        O operation = args.choice("operation", operations, true);
        S spec = readSpec.apply(args);
        if (!args.ok()) {
            return null;
        }
        return change.apply(config, operation, spec);
    }
}
