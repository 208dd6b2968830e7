package dev.tablewright.functions.configs;

import dev.tablewright.lambda.ToolFunction;

/** Lambda handler of {@code search_database_schema}. */
public final class SearchDatabaseSchemaFunction extends ToolFunction {
    public SearchDatabaseSchemaFunction() {
        super(DatabaseTools.search());
    }
}
