package dev.tablewright.toolcontract;


import java.util.Locale;

/** The kinds of input field a tool may ask the user for. {@code secret} values are never logged or echoed. */
public enum FieldType {
    TEXT, NUMBER, SELECT, BOOLEAN, SECRET, DATE;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static FieldType fromWire(String value) {
        for (FieldType t : values()) {
            if (t.wireName().equals(value)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown field type '" + value + "' (expected text, number, select, boolean, secret or date)");
    }
}
