package dev.tablewright.functions.configs;

import dev.tablewright.lambda.ToolFunction;
import dev.tablewright.tools.GetTableConfigTool;

/** Lambda handler of {@link GetTableConfigTool}. */
public final class GetTableConfigFunction extends ToolFunction {
    public GetTableConfigFunction() {
        super(new GetTableConfigTool(ConfigServices.fromEnvironment().configs()));
    }
}
