package dev.tablewright.functions.tools;

import dev.tablewright.lambda.Env;
import dev.tablewright.lambda.ToolFunction;
import dev.tablewright.postgres.GroundingCatalogs;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.tools.ApplyFilterChangeTool;

/** Lambda handler of {@code apply_filter_change} (template.yaml: ApplyFilterChangeFunction). */
public final class ApplyFilterChangeFunction extends ToolFunction {

    /** Grounded against the conversation's chosen data source, of those configured ({@link GroundingCatalogs}). */
    public ApplyFilterChangeFunction() {
        super(new ApplyFilterChangeTool(GroundingCatalogs.configured(Env.all())));
    }

    /** @param catalog live schema for grounding names; null runs ungrounded */
    public ApplyFilterChangeFunction(SchemaCatalog catalog) {
        super(new ApplyFilterChangeTool(catalog));
    }
}
