package dev.tablewright.reference;

import java.util.Locale;
import java.util.Optional;

/**
 * The filter operators of the Config wire format, with the value each expects. SQL compilers switch over this
 * enum; the semantics below are the contract ({@code col} is the column, values are always bound parameters):
 * <ul>
 *   <li>{@code eq}, {@code neq}, {@code gt}, {@code gte}, {@code lt}, {@code lte}: {@code col = ? / <> / > / >= / < / <=};</li>
 *   <li>{@code between}: {@code col BETWEEN ?1 AND ?2}, value a two-element array [low, high];</li>
 *   <li>{@code in}, {@code not_in}: {@code col IN (...)} / {@code NOT IN}, value a non-empty array;</li>
 *   <li>{@code contains}, {@code starts_with}, {@code ends_with}: on a string column a case-insensitive substring /
 *       prefix / suffix match of the column's text ({@code ILIKE} with the value's {@code %_\} escaped); on an array
 *       column {@code contains} means the array holds the element ({@code ? = ANY(col)});</li>
 *   <li>{@code is_null}, {@code is_not_null}: no value.</li>
 * </ul>
 */
public enum FilterOperator {
    EQ("equals the value", ValueShape.SINGLE),
    NEQ("differs from the value (NULLs excluded)", ValueShape.SINGLE),
    GT("greater than the value", ValueShape.SINGLE),
    GTE("greater than or equal to the value", ValueShape.SINGLE),
    LT("less than the value", ValueShape.SINGLE),
    LTE("less than or equal to the value", ValueShape.SINGLE),
    BETWEEN("between two values, inclusive; value [low, high]", ValueShape.PAIR),
    IN("equals one of the values; value a non-empty array", ValueShape.LIST),
    NOT_IN("equals none of the values; value a non-empty array", ValueShape.LIST),
    CONTAINS("string: contains the text (case-insensitive); array: holds the element", ValueShape.SINGLE),
    STARTS_WITH("starts with the text (case-insensitive)", ValueShape.SINGLE),
    ENDS_WITH("ends with the text (case-insensitive)", ValueShape.SINGLE),
    IS_NULL("has no value; no value given", ValueShape.NONE),
    IS_NOT_NULL("has a value; no value given", ValueShape.NONE);

    /** What {@code value} a filter with this operator carries. */
    public enum ValueShape {
        /** No value (absent or null). */
        NONE,
        /** One scalar (string, number or boolean). */
        SINGLE,
        /** A two-element array of scalars. */
        PAIR,
        /** A non-empty array of scalars. */
        LIST
    }

    private final String description;
    private final ValueShape valueShape;

    FilterOperator(String description, ValueShape valueShape) {
        this.description = description;
        this.valueShape = valueShape;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public String description() {
        return description;
    }

    public ValueShape valueShape() {
        return valueShape;
    }

    /** Parses a wire name, case-insensitively ({@code "EQ"}, {@code "eq"}); empty if unknown. */
    public static Optional<FilterOperator> parse(String value) {
        if (value == null || value.length() > 20) {
            return Optional.empty();
        }
        String wanted = value.trim().toLowerCase(Locale.ROOT);
        for (FilterOperator op : values()) {
            if (op.wireName().equals(wanted)) {
                return Optional.of(op);
            }
        }
        return Optional.empty();
    }
}
