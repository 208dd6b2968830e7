package dev.tablewright.sql;

import dev.tablewright.grounding.ResultColumn;
import java.util.List;

/**
 * One SELECT and its parameters. Every identifier in {@code sql} came from the catalogue and is quoted; every value
 * is a {@code ?} placeholder bound from {@code parameters}, in order. {@code rowLimit} rows are wanted; the SQL asks
 * for one more to tell whether there are more.
 */
public record CompiledQuery(String sql, List<BoundValue> parameters, List<ResultColumn> columns, int rowLimit,
                            List<Span> spans) {

    /** Where the SQL of one config field (a filter, a sort) is: characters {@code [start, end)} of {@code sql}. */
    public record Span(int start, int end, String field) {
    }

    public CompiledQuery {
        parameters = List.copyOf(parameters);
        columns = List.copyOf(columns);
        spans = spans == null ? List.of() : List.copyOf(spans);
    }

    /** The config field whose SQL holds character {@code offset} (0-based) of {@link #sql()}; null if none. */
    public String fieldAt(int offset) {
        for (Span s : spans) {
            if (offset >= s.start() && offset < s.end()) {
                return s.field();
            }
        }
        return null;
    }
}
