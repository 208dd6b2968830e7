package dev.tablewright.checks.docs.guide;

import dev.tablewright.lambda.Env;
import dev.tablewright.lambda.ToolFunction;
import dev.tablewright.postgres.PostgresDatabases;

/** Lambda handler of {@code count_rows} (template.yaml: CountRowsFunction). */
public final class CountRowsFunction extends ToolFunction {
    public CountRowsFunction() {
        super(new CountRowsTool(PostgresDatabases.fromEnvironment(Env.all())));
    }
}
