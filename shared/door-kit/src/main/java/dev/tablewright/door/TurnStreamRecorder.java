package dev.tablewright.door;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.StopSignal;
import dev.tablewright.conversation.TurnStreamLog;
import dev.tablewright.logging.StructuredLog;

import java.time.Clock;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * Records a running turn's stream in the {@link TurnStreamLog}, framed as its door frames it ({@link StreamFraming}),
 * for readers in other invocations, and watches the log for a stop request. Sees each part as the door's stream
 * writer writes it and keeps it in memory; one background thread stores
 * what has gathered as one batch every {@link Batching#interval} (sooner when {@link Batching#maxEvents} or
 * {@link Batching#maxBytes} is reached), never one item per delta, and at the same beat reads the stop flag. The
 * turn's thread never waits on DynamoDB. {@link #close} stores the rest as the last batch and clears the marker.
 *
 * <p>The log is best-effort: a write that fails is logged and recording stops (the turn and its own stream go on;
 * a reader ends where the log ends).
 */
public final class TurnStreamRecorder implements Consumer<ObjectNode>, AutoCloseable {

    /**
     * When a batch is stored: every {@code interval}, or as soon as {@code maxEvents} events or {@code maxBytes}
     * bytes have gathered (an item stays far below DynamoDB's 400 KB).
     */
    public record Batching(Duration interval, int maxEvents, int maxBytes) {
        public static final Batching DEFAULT = new Batching(Duration.ofMillis(250), 200, 64 * 1024);
    }

    /** What one turn's recording cost: batches and bytes written, and the stop-flag reads. */
    public record Totals(int batches, int events, long bytes, int stopChecks) {
    }

    private static final StructuredLog LOG = StructuredLog.of(TurnStreamRecorder.class);

    private final TurnStreamLog log;
    private final StreamFraming framing;
    private final String ownerId;
    private final String conversationId;
    private final String streamId;
    private final Batching batching;
    private final StopSignal stop;
    private final Clock clock;
    private final Thread writer;

    private final StringBuilder pending = new StringBuilder();
    private int pendingEvents;
    private boolean closing;
    private int batches;
    private int events;
    private long bytes;
    private int stopChecks;
    private volatile boolean failed;
    /** The marker was written: it is cleared at the end whatever else failed, so the next turn is not held up. */
    private volatile boolean opened;

    TurnStreamRecorder(TurnStreamLog log, StreamFraming framing, String ownerId, String conversationId, String streamId,
                       Batching batching, StopSignal stop, Clock clock) {
        this.log = log;
        this.framing = framing;
        this.ownerId = ownerId;
        this.conversationId = conversationId;
        this.streamId = streamId;
        this.batching = batching;
        this.stop = stop;
        this.clock = clock;
        // the writer's lines (the recording's totals, a failed write) carry the turn's ids and trace, as its own do
        this.writer = Thread.ofVirtual().name("turn-stream-" + streamId).unstarted(StructuredLog.carrying(this::run));
    }

    void start() {
        writer.start();
    }

    public String streamId() {
        return streamId;
    }

    @Override
    public void accept(ObjectNode part) {
        String event = framing.frame(part);
        if (event == null) {
            return; // the stream writer refuses the same part
        }
        synchronized (this) {
            if (closing) {
                return;
            }
            pending.append(event);
            pendingEvents++;
            if (pendingEvents >= batching.maxEvents() || pending.length() >= batching.maxBytes()) {
                notifyAll();
            }
        }
    }

    /** Stores what is left as the last batch and clears the marker; waits for that (bounded). */
    @Override
    public void close() {
        synchronized (this) {
            closing = true;
            notifyAll();
        }
        try {
            writer.join(Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public synchronized Totals totals() {
        return new Totals(batches, events, bytes, stopChecks);
    }

    private void run() {
        try {
            log.open(ownerId, conversationId, streamId, clock.instant());
            opened = true;
        } catch (RuntimeException e) {
            failed = true;
            LOG.warn("the turn's stream cannot be recorded: it will not be resumable", "conversationId", conversationId,
                    "cause", String.valueOf(e.getMessage()));
        }
        while (true) {
            String batch;
            int count;
            boolean last;
            synchronized (this) {
                long waitUntil = System.nanoTime() + batching.interval().toNanos();
                while (!closing && pendingEvents < batching.maxEvents() && pending.length() < batching.maxBytes()) {
                    long left = waitUntil - System.nanoTime();
                    if (left <= 0) {
                        break;
                    }
                    try {
                        wait(Math.max(1, left / 1_000_000));
                    } catch (InterruptedException e) {
                        closing = true;
                    }
                }
                batch = pending.toString();
                count = pendingEvents;
                last = closing;
                pending.setLength(0);
                pendingEvents = 0;
            }
            if (!failed && (count > 0 || last)) {
                store(batch, count, last);
            }
            if (last) {
                finish();
                return;
            }
            if (!failed && !stop.isRaised()) {
                checkStop();
            }
        }
    }

    private void store(String batch, int count, boolean last) {
        try {
            log.append(ownerId, conversationId, streamId, new TurnStreamLog.Batch(batches, batch, count, last), clock.instant());
            synchronized (this) {
                batches++;
                events += count;
                bytes += batch.length();
            }
        } catch (RuntimeException e) {
            failed = true;
            LOG.warn("the turn's stream could not be recorded further", "conversationId", conversationId,
                    "batch", batches, "cause", String.valueOf(e.getMessage()));
        }
    }

    /** A stop may come from any invocation: it is the marker's flag, read at the batches' beat. */
    private void checkStop() {
        try {
            synchronized (this) {
                stopChecks++;
            }
            log.active(ownerId, conversationId)
                    .filter(a -> a.streamId().equals(streamId) && a.stopRequested())
                    .ifPresent(a -> stop.raise());
        } catch (RuntimeException e) {
            // the next beat reads it again
        }
    }

    private void finish() {
        if (opened) {
            try {
                log.close(ownerId, conversationId, streamId);
            } catch (RuntimeException e) {
                LOG.warn("the turn's stream marker could not be cleared", "conversationId", conversationId,
                        "cause", String.valueOf(e.getMessage()));
            }
        }
        Totals t = totals();
        LOG.info("turn stream recorded", "conversationId", conversationId, "streamId", streamId, "batches", t.batches(),
                "events", t.events(), "bytes", t.bytes(), "stopChecks", t.stopChecks(), "complete", !failed);
    }
}
