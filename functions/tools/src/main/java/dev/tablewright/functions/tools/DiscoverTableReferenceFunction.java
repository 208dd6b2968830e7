package dev.tablewright.functions.tools;

import dev.tablewright.lambda.ToolFunction;
import dev.tablewright.tools.DiscoverTableReferenceTool;

/** Lambda handler of {@code discover_table_reference} (template.yaml: DiscoverTableReferenceFunction): a static reference, no schema needed. */
public final class DiscoverTableReferenceFunction extends ToolFunction {

    public DiscoverTableReferenceFunction() {
        super(new DiscoverTableReferenceTool());
    }
}
