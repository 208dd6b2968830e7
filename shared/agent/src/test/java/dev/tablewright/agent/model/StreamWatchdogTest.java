package dev.tablewright.agent.model;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The watchdog's two cancels. Where a test shows that something did not happen, it waits for a later deadline to fire
 * on the watchdogs' one timer thread, which runs its tasks in time order: by then the earlier task would have run.
 */
class StreamWatchdogTest {

    @Test
    void theDeadlineCancelsTheCallAndSaysSo() throws Exception {
        CountDownLatch cancelled = new CountDownLatch(1);
        try (StreamWatchdog watchdog = StreamWatchdog.until(Instant.now().plusMillis(50), cancelled::countDown)) {
            assertTrue(cancelled.await(10, TimeUnit.SECONDS), "cancelled at the deadline");
            assertTrue(watchdog.deadlinePassed());
            assertFalse(watchdog.wentSilent());
        }
    }

    @Test
    void silenceBeforeTheStreamOpensDoesNotCount() throws Exception {
        CountDownLatch cancelled = new CountDownLatch(1);
        // silence is checked every 50 ms; the deadline comes after eight idle limits: had silence counted, it came first
        try (StreamWatchdog watchdog = StreamWatchdog.until(Instant.now().plusMillis(800), cancelled::countDown)
                .silentAfter(Duration.ofMillis(100))) {
            assertTrue(cancelled.await(10, TimeUnit.SECONDS));
            assertTrue(watchdog.deadlinePassed());
            assertFalse(watchdog.wentSilent(), "waiting for the first byte is the deadline's business");
        }
    }

    @Test
    void aStreamSilentForLongerThanTheIdleLimitIsCancelled() throws Exception {
        CountDownLatch cancelled = new CountDownLatch(1);
        try (StreamWatchdog watchdog = StreamWatchdog.until(Instant.now().plusSeconds(600), cancelled::countDown)
                .silentAfter(Duration.ofMillis(100))) {
            watchdog.streaming();
            assertTrue(cancelled.await(10, TimeUnit.SECONDS), "cancelled once silent while streaming");
            assertTrue(watchdog.wentSilent());
            assertFalse(watchdog.deadlinePassed());
        }
    }

    @Test
    void bytesHeardKeepTheStreamAlive() {
        // bytes heard without pause until the deadline, three idle limits on: silence never counts
        try (StreamWatchdog watchdog = StreamWatchdog.until(Instant.now().plusMillis(1500), () -> {
        }).silentAfter(Duration.ofMillis(500))) {
            watchdog.streaming();
            while (!watchdog.deadlinePassed()) {
                watchdog.heard();
                Thread.onSpinWait();
            }
            assertFalse(watchdog.wentSilent());
        }
    }

    @Test
    void aClosedWatchdogCancelsNothing() throws Exception {
        CountDownLatch first = new CountDownLatch(1);
        Instant deadline = Instant.now().plusMillis(200);
        StreamWatchdog closed = StreamWatchdog.until(deadline, first::countDown);
        closed.close();
        CountDownLatch later = new CountDownLatch(1);
        try (StreamWatchdog witness = StreamWatchdog.until(deadline.plusMillis(50), later::countDown)) {
            assertTrue(later.await(10, TimeUnit.SECONDS));
            assertTrue(witness.deadlinePassed());
        }
        assertFalse(closed.deadlinePassed());
        assertTrue(first.getCount() == 1, "the closed watchdog's cancel never ran");
    }
}
