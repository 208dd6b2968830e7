package dev.tablewright.editable;


import java.util.Locale;

/** The value types of an editable field: values travel as strings and are checked against the type. */
public enum EditableFieldType {
    STRING, NUMBER, BOOLEAN, ENUM;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static EditableFieldType fromWire(String value) {
        for (EditableFieldType t : values()) {
            if (t.wireName().equals(value)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown editable field type '" + value + "' (expected string, number, boolean or enum)");
    }
}
