package dev.tablewright.store;

/**
 * The state store could not answer (throttled, unreachable, or a fault on its side) after the client's own
 * retries. Nothing was written, or the write was atomic and did not happen: the caller may simply retry.
 * HTTP handlers answer 503 with {@code Retry-After: retryAfterSeconds}.
 */
public final class StoreUnavailableException extends RuntimeException {

    private final int retryAfterSeconds;

    public StoreUnavailableException(String message, int retryAfterSeconds, Throwable cause) {
        super(message, cause);
        this.retryAfterSeconds = Math.max(1, retryAfterSeconds);
    }

    public int retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
