package dev.tablewright.functions.tools;

import dev.tablewright.lambda.ToolFunction;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.tools.ApplyJoinChangeTool;

/** Lambda handler of {@code apply_join_change} (template.yaml: ApplyJoinChangeFunction). */
public final class ApplyJoinChangeFunction extends ToolFunction {

    public ApplyJoinChangeFunction() {
        this(GroundingCatalog.configured());
    }

    /** @param catalog live schema for grounding names; null runs ungrounded */
    public ApplyJoinChangeFunction(SchemaCatalog catalog) {
        super(new ApplyJoinChangeTool(catalog));
    }
}
