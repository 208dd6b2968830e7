package dev.tablewright.functions.tools;

import dev.tablewright.lambda.Env;
import dev.tablewright.lambda.ToolFunction;
import dev.tablewright.postgres.GroundingCatalogs;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.tools.ApplyColumnChangeTool;

/** Lambda handler of {@code apply_column_change} (template.yaml: ApplyColumnChangeFunction). */
public final class ApplyColumnChangeFunction extends ToolFunction {

    /** Grounded against the conversation's chosen data source, of those configured ({@link GroundingCatalogs}). */
    public ApplyColumnChangeFunction() {
        super(new ApplyColumnChangeTool(GroundingCatalogs.configured(Env.all())));
    }

    /** @param catalog live schema for grounding names; null runs ungrounded */
    public ApplyColumnChangeFunction(SchemaCatalog catalog) {
        super(new ApplyColumnChangeTool(catalog));
    }
}
