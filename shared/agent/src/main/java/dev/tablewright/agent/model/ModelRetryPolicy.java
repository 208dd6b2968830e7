package dev.tablewright.agent.model;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Whether and when a failed model call is tried again: the one place a turn decides it. A failure is retried when
 * it is {@link ModelFailure#retryable() retryable} (429, 5xx, a timeout, before anything reached the client), attempts
 * are left, and the wait (exponential with jitter, or the server's Retry-After, at most 10 s) still ends a second
 * before the turn's deadline.
 *
 * @param attempts attempts per model call, the first included
 * @param backoff  the first wait; doubled each attempt
 */
public record ModelRetryPolicy(int attempts, Duration backoff) {

    /** What to do after a failed attempt. */
    public sealed interface Decision permits GiveUp, Wait, OutOfTime {
    }

    /** Not worth another attempt: the failure stands. */
    public record GiveUp() implements Decision {
    }

    /** Try again after {@code delay}. */
    public record Wait(Duration delay) implements Decision {
    }

    /** Worth another attempt, but the wait would run past the turn's deadline. */
    public record OutOfTime() implements Decision {
    }

    /**
     * @param emitted whether this attempt already streamed something to the client (then it is never repeated)
     * @param attempt the attempt that failed, from 1
     */
    public Decision after(ModelFailure failure, boolean emitted, int attempt, Instant now, Instant deadline) {
        if (emitted || !failure.retryable() || attempt >= Math.max(1, attempts)) {
            return new GiveUp();
        }
        long base = backoff.toMillis() << (attempt - 1);
        long wait = base + ThreadLocalRandom.current().nextLong(Math.max(1, base / 2));
        if (failure.retryAfter().isPresent()) {
            wait = Math.min(Math.max(wait, failure.retryAfter().get().toMillis()), 10_000);
        }
        if (now.plusMillis(wait).plusSeconds(1).isAfter(deadline)) {
            return new OutOfTime();
        }
        return new Wait(Duration.ofMillis(wait));
    }
}
