package dev.tablewright.fakes.concurrent;

import java.time.Duration;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The one bounded poll of the tests, for a state that gives no signal of its own (a row in a store, a process that
 * exits, a request another process sends): it asks again every few milliseconds until the state holds or the bound
 * passes, and then fails with what it waited for. A test that can wait on a signal (a latch, a future, a model's
 * {@code awaitContentServed}) waits on it instead.
 */
public final class Poll {
    private static final long INTERVAL_MILLIS = 10;

    private Poll() {
    }

    /** Waits until {@code condition} holds; an {@link AssertionError} naming {@code what} after {@code bound}. */
    public static void until(String what, Duration bound, BooleanSupplier condition) {
        forValue(what, bound, () -> condition.getAsBoolean() ? Optional.of(Boolean.TRUE) : Optional.empty());
    }

    /** The first value {@code probe} gives within {@code bound}; an {@link AssertionError} naming {@code what} after. */
    public static <T> T forValue(String what, Duration bound, Supplier<Optional<T>> probe) {
        long deadline = System.nanoTime() + bound.toNanos();
        while (true) {
            Optional<T> value = probe.get();
            if (value.isPresent()) {
                return value.get();
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("waited " + bound.toMillis() + " ms for " + what);
            }
            try {
                Thread.sleep(INTERVAL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what, e);
            }
        }
    }
}
