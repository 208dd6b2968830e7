package dev.tablewright.tools;

import dev.tablewright.config.TableConfig;
import dev.tablewright.operations.OperationResult;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.schema.SchemaCatalogs;
import dev.tablewright.toolcontract.ToolArguments;

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
    private final Function<SchemaCatalog, Change<O, S>> changeOn;
    private final SchemaCatalogs catalogs;

    /** @param changeOn the change, grounded against a catalogue (null: ungrounded) */
    ChangeTool(Class<O> operations, Function<ToolArguments, S> readSpec, Function<SchemaCatalog, Change<O, S>> changeOn,
               SchemaCatalogs catalogs) {
        this.operations = operations;
        this.readSpec = readSpec;
        this.changeOn = changeOn;
        this.catalogs = catalogs == null ? SchemaCatalogs.NONE : catalogs;
    }

    @Override
    protected final OperationResult run(ToolArguments args, String dataSource) {
        TableConfig config = args.config("config");
        O operation = args.choice("operation", operations, true);
        S spec = readSpec.apply(args);
        if (!args.ok()) {
            return null;
        }
        return changeOn.apply(catalogs.forDataSource(dataSource)).apply(config, operation, spec);
    }
}
