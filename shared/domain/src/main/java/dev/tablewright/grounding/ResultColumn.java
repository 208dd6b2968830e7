package dev.tablewright.grounding;

import dev.tablewright.schema.ColumnInfo;

/**
 * A column of the compiled SELECT: its result key (alias or name), the SQL alias of the table it comes from,
 * and the catalogue's column (name and PostgreSQL type).
 */
public record ResultColumn(String key, String tableAlias, ColumnInfo column) {
}
