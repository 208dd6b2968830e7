package dev.tablewright.userinput;


import java.util.Locale;

/** Where an input request stands. {@code expired} is never stored: it is a pending request read after its expiry. */
public enum RequestStatus {
    PENDING, COMPLETED, CANCELLED, EXPIRED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static RequestStatus fromWire(String value) {
        for (RequestStatus s : values()) {
            if (s.wireName().equals(value)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown status '" + value + "' (expected pending, completed, cancelled or expired)");
    }
}
