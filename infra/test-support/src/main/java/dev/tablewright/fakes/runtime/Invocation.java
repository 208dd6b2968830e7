package dev.tablewright.fakes.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One event queued at the {@link RuntimeApiEmulator}: the test holds it to follow the answer as it arrives
 * ({@link #nextChunk}) and to wait for its end ({@link #await}).
 */
public final class Invocation {

    private final String requestId;
    private final byte[] event;
    private final long deadlineEpochMillis;
    private final long enqueuedNanos = System.nanoTime();
    private volatile long deliveredNanos;
    private final LinkedBlockingQueue<Chunk> arriving = new LinkedBlockingQueue<>();
    private final List<Chunk> chunks = new ArrayList<>();
    private final CompletableFuture<InvocationResult> result = new CompletableFuture<>();
    private volatile dev.tablewright.fakes.http.HttpResponder responseConnection;
    private volatile boolean dropped;

    Invocation(String requestId, byte[] event, long deadlineEpochMillis) {
        this.requestId = requestId;
        this.event = event;
        this.deadlineEpochMillis = deadlineEpochMillis;
    }

    public String requestId() {
        return requestId;
    }

    byte[] event() {
        return event;
    }

    long deadlineEpochMillis() {
        return deadlineEpochMillis;
    }

    /** {@link System#nanoTime()} when the event was queued. */
    public long enqueuedNanos() {
        return enqueuedNanos;
    }

    /** {@link System#nanoTime()} when the runtime received it from {@code /next}; 0 until then. */
    public long deliveredNanos() {
        return deliveredNanos;
    }

    void delivered() {
        deliveredNanos = System.nanoTime();
    }

    void streaming(dev.tablewright.fakes.http.HttpResponder connection) {
        this.responseConnection = connection;
    }

    boolean dropped() {
        return dropped;
    }

    /**
     * Drops the connection of the streamed response now, as Lambda does when nobody reads the stream any more:
     * the function sees its stream break. The result's outcome becomes {@code DROPPED}.
     */
    public void dropStream() {
        dev.tablewright.fakes.http.HttpResponder connection = responseConnection;
        if (connection == null) {
            throw new IllegalStateException("no streamed response is open for " + requestId);
        }
        dropped = true;
        connection.abort();
    }

    void chunk(Chunk chunk) {
        synchronized (chunks) {
            chunks.add(chunk);
        }
        arriving.add(chunk);
    }

    void complete(InvocationResult value) {
        result.complete(value);
    }

    /** The next chunk of a streamed answer as it arrives; null if none came within {@code timeout}. */
    public Chunk nextChunk(Duration timeout) throws InterruptedException {
        return arriving.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Every chunk received so far, in arrival order. */
    public List<Chunk> chunks() {
        synchronized (chunks) {
            return List.copyOf(chunks);
        }
    }

    public CompletableFuture<InvocationResult> result() {
        return result;
    }

    public boolean isDone() {
        return result.isDone();
    }

    /** Waits for the end of the invocation. */
    public InvocationResult await(Duration timeout) throws InterruptedException, TimeoutException {
        try {
            return result.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }
}
