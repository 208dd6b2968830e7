package dev.tablewright.operations;

import java.util.List;

/**
 * A join to add or remove: {@code table} and {@code schema} (default: the base table's schema),
 * {@code joinType} (default LEFT), {@code relationshipFrom} ({@code <base-or-alias>.<column>}) and
 * {@code relationshipTo} ({@code <table>.<column>}; both inferred from the catalogue's foreign keys when absent),
 * an optional {@code alias} (derived when absent), and {@code columnsToAdd} from the joined table.
 * For removal, {@code alias} (or {@code table} when it is joined once) names the join.
 */
public record JoinSpec(String table, String schema, String alias, String joinType, String relationshipFrom,
                       String relationshipTo, List<ColumnSpec> columnsToAdd) {

    public JoinSpec {
        columnsToAdd = columnsToAdd == null ? List.of() : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(columnsToAdd));
    }
}
