package dev.tablewright.schema;

import java.util.List;

/**
 * A column as introspected. {@code pgType} is PostgreSQL's formatted type, e.g. {@code timestamp with time zone},
 * {@code sales.order_status}; {@code enumLabels} are the labels of a user-defined enum, in their order (else empty).
 */
public record ColumnInfo(String name, String pgType, boolean nullable, boolean primaryKey, String defaultValue,
                         boolean userDefinedEnum, List<String> enumLabels) {

    public ColumnInfo {
        enumLabels = enumLabels == null ? List.of() : List.copyOf(enumLabels);
    }

    public ColumnInfo(String name, String pgType, boolean nullable, boolean primaryKey, String defaultValue, boolean userDefinedEnum) {
        this(name, pgType, nullable, primaryKey, defaultValue, userDefinedEnum, List.of());
    }
}
