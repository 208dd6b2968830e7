package dev.tablewright.functions.tools;

import dev.tablewright.lambda.Env;
import dev.tablewright.lambda.ToolFunction;
import dev.tablewright.postgres.GroundingCatalogs;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.tools.ApplySortChangeTool;

/** Lambda handler of {@code apply_sort_change} (template.yaml: ApplySortChangeFunction). */
public final class ApplySortChangeFunction extends ToolFunction {

    /** Grounded against the conversation's chosen data source, of those configured ({@link GroundingCatalogs}). */
    public ApplySortChangeFunction() {
        super(new ApplySortChangeTool(GroundingCatalogs.configured(Env.all())));
    }

    /** @param catalog live schema for grounding names; null runs ungrounded */
    public ApplySortChangeFunction(SchemaCatalog catalog) {
        super(new ApplySortChangeTool(catalog));
    }
}
