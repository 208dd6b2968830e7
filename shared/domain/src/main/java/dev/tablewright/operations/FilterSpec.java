package dev.tablewright.operations;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A filter to add or remove ({@code column}, {@code operator}, {@code value}, {@code label}).
 * {@code column} is a result key, or a column name that is then added as a hidden column from
 * {@code sourceTable} (absent: the base table) with type {@code pgType} (from the catalogue when absent).
 * For removal only {@code column} is needed; {@code operator} narrows it.
 */
public record FilterSpec(String column, String operator, JsonNode value, String label, String sourceTable, String pgType) {

    public static FilterSpec of(String column, String operator, JsonNode value) {
        return new FilterSpec(column, operator, value, null, null, null);
    }
}
