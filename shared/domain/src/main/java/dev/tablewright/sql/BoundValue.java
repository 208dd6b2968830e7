package dev.tablewright.sql;

/**
 * A filter value sent as a bound parameter (always as text; the SQL casts it to {@code castType}), with the config
 * field it came from so a value PostgreSQL refuses (an invalid date, a label not in the enum) becomes an error on
 * that field. {@code castType} is null for a plain text parameter (LIKE patterns).
 */
public record BoundValue(String text, String castType, String field) {
}
