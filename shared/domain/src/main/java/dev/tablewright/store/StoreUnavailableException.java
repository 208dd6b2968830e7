package dev.tablewright.store;

import dev.tablewright.failure.DomainFailure;
import dev.tablewright.failure.ErrorCode;

/**
 * The state store could not answer (throttled, unreachable, or a fault on its side) after the client's own
 * retries. Nothing was written, or the write was atomic and did not happen: the caller may simply retry.
 * HTTP handlers answer 503 with {@code Retry-After: retryAfterSeconds}.
 */
public final class StoreUnavailableException extends DomainFailure {

    private final int retryAfterSeconds;

    public StoreUnavailableException(String message, int retryAfterSeconds, Throwable cause) {
        super(Kind.UNAVAILABLE, ErrorCode.UNAVAILABLE, message, cause);
        this.retryAfterSeconds = Math.max(1, retryAfterSeconds);
    }

    public int retryAfterSeconds() {
        return retryAfterSeconds;
    }

    /** The cause is for the logs; callers are told to retry. */
    @Override
    public String publicMessage() {
        return "the service is busy or unreachable; retry later";
    }
}
