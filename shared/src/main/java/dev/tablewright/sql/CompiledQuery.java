package dev.tablewright.sql;

import java.util.List;

/**
 * One SELECT and its parameters. Every identifier in {@code sql} came from the catalogue and is quoted; every value
 * is a {@code ?} placeholder bound from {@code parameters}, in order. {@code rowLimit} rows are wanted; the SQL asks
 * for one more to tell whether there are more.
 */
public record CompiledQuery(String sql, List<BoundValue> parameters, List<ResultColumn> columns, int rowLimit) {
    public CompiledQuery {
        parameters = List.copyOf(parameters);
        columns = List.copyOf(columns);
    }
}
