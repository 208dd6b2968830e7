package dev.tablewright.functions.tools;

import dev.tablewright.lambda.Env;
import dev.tablewright.lambda.ToolFunction;
import dev.tablewright.postgres.GroundingCatalogs;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.tools.ValidateTableConfigTool;

/** Lambda handler of {@code validate_table_config} (template.yaml: ValidateTableConfigFunction). */
public final class ValidateTableConfigFunction extends ToolFunction {

    /** Grounded against the conversation's chosen data source, of those configured ({@link GroundingCatalogs}). */
    public ValidateTableConfigFunction() {
        super(new ValidateTableConfigTool(GroundingCatalogs.configured(Env.all())));
    }

    /** @param catalog live schema for grounding names; null runs ungrounded */
    public ValidateTableConfigFunction(SchemaCatalog catalog) {
        super(new ValidateTableConfigTool(catalog));
    }
}
