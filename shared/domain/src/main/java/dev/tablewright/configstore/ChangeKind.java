package dev.tablewright.configstore;


import java.util.Locale;

/** How a version came about: created, updated directly, an accepted preview, or a restore of an earlier version. */
public enum ChangeKind {
    CREATE, UPDATE, PREVIEW, RESTORE;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ChangeKind fromWire(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }
}
