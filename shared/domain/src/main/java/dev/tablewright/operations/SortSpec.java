package dev.tablewright.operations;

/** One sort entry of {@code apply_sort_change}: a result key (or a column name added hidden), and asc/desc. */
public record SortSpec(String column, String direction, String sourceTable) {

    public static SortSpec of(String column, String direction) {
        return new SortSpec(column, direction, null);
    }
}
