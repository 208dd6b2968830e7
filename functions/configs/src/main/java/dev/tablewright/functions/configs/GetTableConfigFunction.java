package dev.tablewright.functions.configs;

import dev.tablewright.lambda.ToolFunction;
import dev.tablewright.tools.GetTableConfigTool;

/** Lambda handler of {@link GetTableConfigTool}. */
public final class GetTableConfigFunction extends ToolFunction {
    public GetTableConfigFunction() {
        this(ConfigServices.fromEnvironment());
    }

    public GetTableConfigFunction(ConfigServices services) {
        super(new GetTableConfigTool(services.configs()));
    }
}
