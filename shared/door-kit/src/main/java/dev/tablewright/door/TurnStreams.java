package dev.tablewright.door;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.AgentEvent;
import dev.tablewright.agent.StopSignal;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.conversation.TurnStreamLog;
import dev.tablewright.logging.StructuredLog;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Turns that outlive their client, whatever door runs them: a running turn's stream is recorded ({@link #record},
 * or the whole sequence, {@link #run}), read again from its start and followed live by another request
 * ({@link #resume}: {@code GET …/{id}/stream}), and stopped from anywhere ({@link #stop}: {@code POST …/{id}/stop}),
 * each in the framing of the door that asks ({@link StreamFraming}). {@link #NONE} where no stream log is deployed:
 * nothing is recorded, nothing is ever running.
 */
public final class TurnStreams {

    /**
     * @param batching   how the recorder batches its writes (and how often it reads the stop flag)
     * @param readerPoll how often a reader that has caught up asks the log for more
     * @param maxTurn    the longest a turn runs (its time budget): a marker older than this and a grace is a
     *                   turn that died without closing its log, and nothing runs
     */
    public record Settings(TurnStreamRecorder.Batching batching, Duration readerPoll, Duration maxTurn) {
        public static Settings defaults(Duration maxTurn) {
            return new Settings(TurnStreamRecorder.Batching.DEFAULT, Duration.ofMillis(250), maxTurn);
        }
    }

    public static final TurnStreams NONE = new TurnStreams(null, Settings.defaults(Duration.ofMinutes(2)), Clock.systemUTC());

    /** A writer that gave no sign of life for this long after its turn's time budget has died. */
    private static final Duration GRACE = Duration.ofSeconds(30);
    /** A reader that has caught up asks whether the turn still runs this often. */
    private static final Duration MARKER_CHECK = Duration.ofSeconds(2);
    private static final StructuredLog LOG = StructuredLog.of(TurnStreams.class);

    private final TurnStreamLog log;
    private final Settings settings;
    private final Clock clock;

    public TurnStreams(TurnStreamLog log, Settings settings, Clock clock) {
        this.log = log;
        this.settings = settings;
        this.clock = clock;
    }

    public boolean enabled() {
        return log != null;
    }

    /**
     * Starts recording a turn's stream (observe the stream writer with the recorder, close it after the turn's
     * end); a stop request for the conversation raises {@code stop}.
     */
    public TurnStreamRecorder record(String ownerId, String conversationId, StopSignal stop, Runnable beforeOpen,
                                     StreamFraming framing) {
        if (log == null) {
            throw new IllegalStateException("no stream log");
        }
        TurnStreamRecorder recorder = new TurnStreamRecorder(log, framing, ownerId, conversationId, AgentEvent.newId("str"),
                settings.batching(), stop, beforeOpen, clock);
        recorder.start();
        return recorder;
    }

    /** A turn run by its door: given its stop signal and, for a kept turn, the recorder to observe its stream with. */
    @FunctionalInterface
    public interface Turn {
        void run(StopSignal stop, Optional<Consumer<ObjectNode>> recorder);
    }

    /**
     * Record → run → save, the sequence of every door's turn: a kept turn ({@code kept}: its answer is stored) is
     * recorded while it runs when a stream log is deployed, {@code beforeOpen} (storing the user's message) running
     * first on the recorder's thread; the turn saves its own end; the recording ends after the turn's stream does.
     */
    public void run(String ownerId, String conversationId, boolean kept, Runnable beforeOpen, StreamFraming framing, Turn turn) {
        StopSignal stop = new StopSignal();
        TurnStreamRecorder recorder = kept && enabled() ? record(ownerId, conversationId, stop, beforeOpen, framing) : null;
        try {
            turn.run(stop, Optional.ofNullable(recorder));
        } finally {
            if (recorder != null) {
                recorder.close();
            }
        }
    }

    private List<TurnStreamLog.Batch> readQuietly(String ownerId, String conversationId, String streamId, int next) {
        try {
            return log.read(ownerId, conversationId, streamId, next);
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    /**
     * Asks the conversation's running turn to stop; true when one was running (a no-op otherwise).
     *
     * @throws RuntimeException the stream log could not be reached (nothing was written)
     */
    public boolean stop(String ownerId, String conversationId) {
        return log != null && log.requestStop(ownerId, conversationId);
    }

    /**
     * Answers a resume: {@code 204} when the owner's conversation has no running turn; else the door's stream (its
     * headers) from the turn's start through everything recorded so far, then live, to its end. A reader that has caught up polls the log every
     * {@link Settings#readerPoll}. It ends at the recorded end, when the turn is gone without one (then the door
     * writes its end itself, {@link StreamFraming#close}), at {@code deadline}, or when its own client leaves.
     */
    public void resume(String ownerId, String conversationId, HttpResponseStream response, Optional<Instant> deadline,
                       StreamFraming framing) {
        Optional<TurnStreamLog.ActiveStream> active;
        try {
            active = log == null ? Optional.empty() : log.active(ownerId, conversationId)
                    .filter(a -> a.startedAt() == null || a.startedAt().plus(settings.maxTurn()).plus(GRACE).isAfter(clock.instant()));
        } catch (RuntimeException e) {
            LOG.warn("the stream log could not be read", "conversationId", conversationId, "cause", String.valueOf(e.getMessage()));
            Refusals.unavailable(response);
            return;
        }
        if (active.isEmpty()) {
            response.start(204, Map.of());
            response.close();
            return;
        }
        String streamId = active.get().streamId();
        response.start(200, framing.headers());
        int next = 0;
        int batches = 0;
        boolean finished = false;
        boolean ended = false;
        long caughtUpSince = System.nanoTime();
        long started = System.nanoTime();
        while (!ended) {
            List<TurnStreamLog.Batch> read;
            try {
                read = log.read(ownerId, conversationId, streamId, next);
            } catch (RuntimeException e) {
                LOG.warn("the stream log could not be read further", "conversationId", conversationId, "cause", String.valueOf(e.getMessage()));
                break; // the reader ends cleanly; the turn itself goes on and is stored
            }
            for (TurnStreamLog.Batch batch : read) {
                if (batch.number() != next) {
                    break; // not stored yet (never, as batches are stored in order): read again
                }
                response.write(batch.events().getBytes(StandardCharsets.UTF_8));
                finished |= framing.ends(batch.events());
                next++;
                batches++;
                ended = batch.last();
                caughtUpSince = System.nanoTime();
            }
            response.flush();
            if (ended || response.isClientGone()) {
                break;
            }
            if (deadline.isPresent() && !clock.instant().isBefore(deadline.get().minusSeconds(2))) {
                break;
            }
            if (read.isEmpty() && System.nanoTime() - caughtUpSince > MARKER_CHECK.toNanos()) {
                boolean running;
                try {
                    running = log.active(ownerId, conversationId).filter(a -> a.streamId().equals(streamId)).isPresent();
                } catch (RuntimeException e) {
                    running = true; // asked again at the next check
                }
                if (!running) {
                    // closed (its last batch is stored before the marker goes) or replaced: one last read
                    for (TurnStreamLog.Batch batch : readQuietly(ownerId, conversationId, streamId, next)) {
                        response.write(batch.events().getBytes(StandardCharsets.UTF_8));
                        finished |= framing.ends(batch.events());
                        next++;
                    }
                    break;
                }
                caughtUpSince = System.nanoTime();
            }
            try {
                Thread.sleep(settings.readerPoll().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        framing.close(response, finished);
        LOG.info("turn stream resumed", "conversationId", conversationId, "streamId", streamId, "batches", batches,
                "complete", finished, "ms", (System.nanoTime() - started) / 1_000_000);
    }
}
