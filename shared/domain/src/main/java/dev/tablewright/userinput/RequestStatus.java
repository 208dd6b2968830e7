package dev.tablewright.userinput;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/** Where an input request stands. {@code expired} is never stored: it is a pending request read after its expiry. */
public enum RequestStatus {
    PENDING, COMPLETED, CANCELLED, EXPIRED;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static RequestStatus fromWire(String value) {
        for (RequestStatus s : values()) {
            if (s.wireName().equals(value)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown status '" + value + "' (expected pending, completed, cancelled or expired)");
    }
}
