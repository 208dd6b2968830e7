package dev.tablewright.preview;


import java.util.Locale;

/**
 * Where a pending preview stands. {@code pending}, {@code accepted} and {@code rejected} are stored;
 * {@code expired} is never stored: it is what a pending preview past its expiry reads as
 * ({@link PendingPreview#statusAt}), because DynamoDB's TTL deletion is lazy.
 */
public enum PreviewStatus {
    PENDING, ACCEPTED, REJECTED, EXPIRED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static PreviewStatus fromWire(String value) {
        for (PreviewStatus s : values()) {
            if (s.wireName().equals(value)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown preview status '" + value + "' (expected pending, accepted, rejected or expired)");
    }
}
