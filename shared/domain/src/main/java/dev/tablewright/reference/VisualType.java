package dev.tablewright.reference;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import static dev.tablewright.reference.FilterOperator.*;

/**
 * How a column is displayed ({@code visual_settings.columns.<key>.type}), with the format options the builder
 * offers for it and the filter operators valid for it. {@code date} and {@code datetime} must carry a format
 * ({@link #requiresFormat()}); the others may.
 */
public enum VisualType {
    STRING(EnumSet.of(EQ, NEQ, IN, NOT_IN, CONTAINS, STARTS_WITH, ENDS_WITH, IS_NULL, IS_NOT_NULL),
            List.of(), null),
    NUMBER(EnumSet.of(EQ, NEQ, GT, GTE, LT, LTE, BETWEEN, IN, NOT_IN, IS_NULL, IS_NOT_NULL),
            List.of("0", "0.00", "#,##0", "#,##0.00", "0%", "0.00%"), null),
    BOOLEAN(EnumSet.of(EQ, NEQ, IS_NULL, IS_NOT_NULL),
            List.of("true_false", "yes_no", "check"), null),
    DATE(EnumSet.of(EQ, NEQ, GT, GTE, LT, LTE, BETWEEN, IS_NULL, IS_NOT_NULL),
            List.of("yyyy-MM-dd", "dd/MM/yyyy", "MM/dd/yyyy", "dd.MM.yyyy", "d MMM yyyy", "MMM d, yyyy"), "yyyy-MM-dd"),
    DATETIME(EnumSet.of(EQ, NEQ, GT, GTE, LT, LTE, BETWEEN, IS_NULL, IS_NOT_NULL),
            List.of("yyyy-MM-dd HH:mm", "yyyy-MM-dd HH:mm:ss", "dd/MM/yyyy HH:mm", "MM/dd/yyyy hh:mm a",
                    "d MMM yyyy HH:mm"), "yyyy-MM-dd HH:mm"),
    TIME(EnumSet.of(EQ, NEQ, GT, GTE, LT, LTE, BETWEEN, IS_NULL, IS_NOT_NULL),
            List.of("HH:mm", "HH:mm:ss", "hh:mm a"), "HH:mm"),
    UUID(EnumSet.of(EQ, NEQ, IN, NOT_IN, IS_NULL, IS_NOT_NULL), List.of(), null),
    JSON(EnumSet.of(IS_NULL, IS_NOT_NULL), List.of("compact", "pretty"), null),
    ARRAY(EnumSet.of(CONTAINS, IS_NULL, IS_NOT_NULL), List.of("comma_separated", "chips"), null),
    ENUM(EnumSet.of(EQ, NEQ, IN, NOT_IN, IS_NULL, IS_NOT_NULL), List.of(), null);

    private final Set<FilterOperator> operators;
    private final List<String> formats;
    private final String defaultFormat;

    VisualType(EnumSet<FilterOperator> operators, List<String> formats, String defaultFormat) {
        this.operators = java.util.Collections.unmodifiableSet(operators);
        this.formats = formats;
        this.defaultFormat = defaultFormat;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The filter operators valid for a column of this type, in declaration order. */
    public Set<FilterOperator> operators() {
        return operators;
    }

    public boolean allows(FilterOperator operator) {
        return operators.contains(operator);
    }

    /** The format options the builder offers; a custom pattern is allowed (with a warning). */
    public List<String> formats() {
        return formats;
    }

    /** The format injected when a column of this type is added without one; null if none is needed. */
    public String defaultFormat() {
        return defaultFormat;
    }

    public boolean requiresFormat() {
        return this == DATE || this == DATETIME;
    }

    /** Parses a wire name, case-insensitively; empty if unknown. */
    public static Optional<VisualType> parse(String value) {
        if (value == null || value.length() > 20) {
            return Optional.empty();
        }
        String wanted = value.trim().toLowerCase(Locale.ROOT);
        for (VisualType t : values()) {
            if (t.wireName().equals(wanted)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    public static String wireNames() {
        StringBuilder out = new StringBuilder();
        for (VisualType t : values()) {
            out.append(out.isEmpty() ? "" : ", ").append(t.wireName());
        }
        return out.toString();
    }
}
