package dev.tablewright.config;

import java.util.Locale;
import java.util.Optional;

/** The join types a foreign table may use. The wire form is upper case; input is read case-insensitively. */
public enum JoinType {
    INNER, LEFT, RIGHT, FULL;

    public static Optional<JoinType> parse(String value) {
        if (value == null || value.length() > 10) {
            return Optional.empty();
        }
        String wanted = value.trim().toUpperCase(Locale.ROOT);
        if (wanted.endsWith(" JOIN")) {
            wanted = wanted.substring(0, wanted.length() - 5).trim();
        }
        for (JoinType t : values()) {
            if (t.name().equals(wanted)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
