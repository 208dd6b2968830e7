package dev.tablewright.operations;

/**
 * A column an operation adds or removes, as the tools' arguments give it: {@code name} of the column,
 * {@code sourceTable} the base table, a join's alias or a joined table's name (absent: the base table),
 * {@code pgType} its PostgreSQL type (taken from the catalogue when absent), {@code alias} its result key when
 * not its name, {@code hidden}; {@code header} and {@code format} are optional display settings.
 */
public record ColumnSpec(String name, String sourceTable, String sourceSchema, String pgType, String alias,
                         Boolean hidden, String header, String format) {

    public static ColumnSpec named(String name) {
        return new ColumnSpec(name, null, null, null, null, null, null, null);
    }

    public boolean isHidden() {
        return Boolean.TRUE.equals(hidden);
    }
}
