package dev.tablewright.functions.configs;

import dev.tablewright.lambda.ToolFunction;
import dev.tablewright.tools.UpdateTableConfigTool;

/** Lambda handler of {@link UpdateTableConfigTool}. */
public final class UpdateTableConfigFunction extends ToolFunction {
    public UpdateTableConfigFunction() {
        this(ConfigServices.fromEnvironment());
    }

    public UpdateTableConfigFunction(ConfigServices services) {
        super(new UpdateTableConfigTool(services.configs(), services.clock()));
    }
}
