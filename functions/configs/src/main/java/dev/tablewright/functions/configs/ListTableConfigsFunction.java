package dev.tablewright.functions.configs;

import dev.tablewright.lambda.ToolFunction;
import dev.tablewright.tools.ListTableConfigsTool;

/** Lambda handler of {@link ListTableConfigsTool}. */
public final class ListTableConfigsFunction extends ToolFunction {
    public ListTableConfigsFunction() {
        this(ConfigServices.fromEnvironment());
    }

    public ListTableConfigsFunction(ConfigServices services) {
        super(new ListTableConfigsTool(services.configs()));
    }
}
