package dev.tablewright.schema;

import java.util.List;

/** A foreign key, possibly multi-column: {@code fromColumns[i]} references {@code toColumns[i]}. */
public record ForeignKey(String name, String fromSchema, String fromTable, List<String> fromColumns,
                         String toSchema, String toTable, List<String> toColumns) {
    public ForeignKey {
        fromColumns = List.copyOf(fromColumns);
        toColumns = List.copyOf(toColumns);
    }
}
