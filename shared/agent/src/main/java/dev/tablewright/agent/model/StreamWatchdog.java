package dev.tablewright.agent.model;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The one watch over a model's stream, for every provider: it cancels the call at the turn's deadline, and, when
 * asked to, once the stream has gone silent for longer than the idle limit. The provider says when bytes arrive
 * ({@link #heard}) and reads afterwards which of the two ended the call. Closing it stops the watch.
 */
public final class StreamWatchdog implements AutoCloseable {

    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "model-deadline");
        t.setDaemon(true);
        return t;
    });

    private final Runnable cancel;
    private final AtomicBoolean deadlinePassed = new AtomicBoolean();
    private final AtomicBoolean silent = new AtomicBoolean();
    private final AtomicBoolean streaming = new AtomicBoolean();
    private final AtomicLong lastHeard = new AtomicLong(System.nanoTime());
    private final ScheduledFuture<?> deadline;
    private volatile ScheduledFuture<?> silence;

    private StreamWatchdog(Instant deadline, Runnable cancel) {
        this.cancel = cancel;
        this.deadline = TIMER.schedule(() -> {
            deadlinePassed.set(true);
            cancel.run();
        }, Math.max(1, Duration.between(Instant.now(), deadline).toMillis()), TimeUnit.MILLISECONDS);
    }

    /** Watches a call that must be over by {@code deadline}: then {@code cancel} runs. */
    public static StreamWatchdog until(Instant deadline, Runnable cancel) {
        return new StreamWatchdog(deadline, cancel);
    }

    /**
     * Also cancels the call once its stream, after {@link #streaming}, has been silent for longer than {@code idle}
     * (for a transport without a read timeout of its own); returns this watchdog.
     */
    public StreamWatchdog silentAfter(Duration idle) {
        long idleNanos = idle.toNanos();
        long checkEvery = Math.max(50, Math.min(1000, idle.toMillis() / 4));
        silence = TIMER.scheduleWithFixedDelay(() -> {
            if (streaming.get() && System.nanoTime() - lastHeard.get() > idleNanos) {
                silent.set(true);
                cancel.run();
            }
        }, checkEvery, checkEvery, TimeUnit.MILLISECONDS);
        return this;
    }

    /** The answer's stream is open: from now on silence counts. */
    public void streaming() {
        lastHeard.set(System.nanoTime());
        streaming.set(true);
    }

    /** Bytes arrived. */
    public void heard() {
        lastHeard.set(System.nanoTime());
    }

    /** Whether the deadline cancelled the call. */
    public boolean deadlinePassed() {
        return deadlinePassed.get();
    }

    /** Whether the stream's silence cancelled the call. */
    public boolean wentSilent() {
        return silent.get();
    }

    @Override
    public void close() {
        deadline.cancel(false);
        ScheduledFuture<?> s = silence;
        if (s != null) {
            s.cancel(false);
        }
    }
}
