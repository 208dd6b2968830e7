package dev.tablewright.schema;

/** A column as introspected. {@code pgType} is PostgreSQL's formatted type, e.g. {@code timestamp with time zone}, {@code sales.order_status}. */
public record ColumnInfo(String name, String pgType, boolean nullable, boolean primaryKey, String defaultValue,
                         boolean userDefinedEnum) {
}
