package dev.tablewright.functions.tools;

import dev.tablewright.lambda.Env;
import dev.tablewright.lambda.ToolFunction;
import dev.tablewright.postgres.GroundingCatalogs;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.tools.ApplyJoinChangeTool;

/** Lambda handler of {@code apply_join_change} (template.yaml: ApplyJoinChangeFunction). */
public final class ApplyJoinChangeFunction extends ToolFunction {

    /** Grounded against the conversation's chosen data source, of those configured ({@link GroundingCatalogs}). */
    public ApplyJoinChangeFunction() {
        super(new ApplyJoinChangeTool(GroundingCatalogs.configured(Env.all())));
    }

    /** @param catalog live schema for grounding names; null runs ungrounded */
    public ApplyJoinChangeFunction(SchemaCatalog catalog) {
        super(new ApplyJoinChangeTool(catalog));
    }
}
