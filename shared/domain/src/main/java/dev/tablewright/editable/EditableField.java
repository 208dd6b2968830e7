package dev.tablewright.editable;


import java.math.BigDecimal;
import java.util.List;

/**
 * One field the assistant may change directly, self-described so the model knows
 * what a valid value is: its type, a plain-language constraint, the allowed values of an enum, the fields it
 * depends on, and whether it is read-only. Values are strings (or null for "not set"), as the page sends them.
 *
 * @param min       for numbers: the smallest allowed value (inclusive); null for no bound
 * @param max       for numbers: the largest allowed value; for strings: the maximum length; null for no bound
 * @param integer   for numbers: whole numbers only
 * @param nullable  whether the field may be cleared (set to null)
 */
public record EditableField(String name, String description, EditableFieldType type, String constraint,
                            List<String> enumValues, List<String> dependsOn, boolean readonly,
                            BigDecimal min, BigDecimal max, boolean integer, boolean nullable, String value) {

    public EditableField {
        enumValues = enumValues == null ? List.of() : List.copyOf(enumValues);
        dependsOn = dependsOn == null ? List.of() : List.copyOf(dependsOn);
    }

    public EditableField withValue(String newValue) {
        return new EditableField(name, description, type, constraint, enumValues, dependsOn, readonly, min, max,
                integer, nullable, newValue);
    }
}
