package dev.tablewright.config;

import java.util.Locale;
import java.util.Optional;

/** A sort direction. The wire form is lower case ({@code asc}, {@code desc}); input is read case-insensitively. */
public enum SortDirection {
    ASC, DESC;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<SortDirection> parse(String value) {
        if (value == null || value.length() > 10) {
            return Optional.empty();
        }
        String wanted = value.trim().toLowerCase(Locale.ROOT);
        return switch (wanted) {
            case "asc", "ascending" -> Optional.of(ASC);
            case "desc", "descending" -> Optional.of(DESC);
            default -> Optional.empty();
        };
    }
}
