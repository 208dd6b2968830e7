package dev.tablewright.functions.configs;

import dev.tablewright.lambda.ToolFunction;

/** Lambda handler of {@code preview_table_config}. */
public final class PreviewTableConfigFunction extends ToolFunction {
    public PreviewTableConfigFunction() {
        super(DatabaseTools.preview());
    }
}
