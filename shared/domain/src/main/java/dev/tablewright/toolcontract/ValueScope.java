package dev.tablewright.toolcontract;


import java.util.Locale;

/** How long a saved input value lives: the conversation, or the user across conversations. */
public enum ValueScope {
    CONVERSATION, USER;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ValueScope fromWire(String value) {
        for (ValueScope s : values()) {
            if (s.wireName().equals(value)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown scope '" + value + "' (expected conversation or user)");
    }
}
