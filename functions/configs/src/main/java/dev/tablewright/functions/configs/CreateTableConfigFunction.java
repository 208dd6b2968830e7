package dev.tablewright.functions.configs;

import dev.tablewright.lambda.ToolFunction;
import dev.tablewright.tools.CreateTableConfigTool;

/** Lambda handler of {@link CreateTableConfigTool}. */
public final class CreateTableConfigFunction extends ToolFunction {
    public CreateTableConfigFunction() {
        this(ConfigServices.fromEnvironment());
    }

    public CreateTableConfigFunction(ConfigServices services) {
        super(new CreateTableConfigTool(services.configs(), services.clock()));
    }
}
