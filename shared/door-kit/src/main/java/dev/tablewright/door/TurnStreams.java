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
    public TurnStreamRecorder record(String ownerId, String conversationId, StopSignal stop, StreamFraming framing) {
        if (log == null) {
            throw new IllegalStateException("no stream log");
        }
        TurnStreamRecorder recorder = new TurnStreamRecorder(log, framing, ownerId, conversationId, AgentEvent.newId("str"),
                settings.batching(), stop, clock);
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
     * recorded while it runs when a stream log is deployed; the turn saves its own end; the recording ends after the
     * turn's stream does.
     */
    public void run(String ownerId, String conversationId, boolean kept, StreamFraming framing, Turn turn) {
        StopSignal stop = new StopSignal();
        TurnStreamRecorder recorder = kept && enabled() ? record(ownerId, conversationId, stop, framing) : null;
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
     * How long a reader that has caught up waits before asking again, {@code sinceWritten} after the earliest moment
     * the last batch it got can have been stored (the poll before the one that found it). The writer stores a batch a
     * {@link TurnStreamRecorder.Batching#interval} and its own round trips after the one before while there is
     * something to store, so the next is not there before that; from then the reader asks every fifth of
     * {@link Settings#readerPoll} and sees the batch within that of its write, not within a whole poll. A reader that
     * found a batch a whole pause late learns the writer's beat again within one beat (it asks often from the next
     * moment the next batch can be there). A writer with nothing to store (a tool running) writes nothing: a beat and
     * a poll without news, and the reader asks every poll again. The writer's writes are unchanged.
     */
    long pauseMillis(long sinceWrittenNanos) {
        long poll = settings.readerPoll().toMillis();
        long step = Math.max(1, poll / 5);
        long first = settings.batching().interval().toMillis() + step;
        long since = sinceWrittenNanos / 1_000_000;
        if (since < first) {
            return first - since;
        }
        return since < first + poll ? step : poll;
    }

    /**
     * Answers a resume: {@code 204} when the owner's conversation has no running turn; else the door's stream (its
     * headers) from the turn's start through everything recorded so far, then live, to its end. A reader that has caught up polls the log in step with the writer's batches
     * ({@link #pauseMillis}), less often while nothing comes (up to four polls' time). It ends at the recorded end, when the turn is gone without one (then the door
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
        // never longer than a turn can run: a writer that died without closing its log leaves a marker behind
        Instant lastChance = active.get().startedAt() == null ? clock.instant().plus(settings.maxTurn()).plus(GRACE)
                : active.get().startedAt().plus(settings.maxTurn()).plus(GRACE);
        long quietPause = settings.readerPoll().toMillis();
        // the poll before the one that found the last batch, which was stored after it; at first unknown: ask often
        long previousPoll = started - settings.batching().interval().plus(settings.readerPoll()).toNanos();
        long writtenAfter = previousPoll;
        while (!ended) {
            List<TurnStreamLog.Batch> read;
            long polled = System.nanoTime();
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
                writtenAfter = previousPoll;
            }
            previousPoll = polled;
            response.flush();
            if (ended || response.isClientGone()) {
                break;
            }
            if (deadline.isPresent() && !clock.instant().isBefore(deadline.get().minusSeconds(2))
                    || !clock.instant().isBefore(lastChance)) {
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
            // in step with the writer while it writes; a reader that keeps finding nothing asks less often (up to four
            // polls' time), and in step again after news
            long pause = pauseMillis(System.nanoTime() - writtenAfter);
            if (read.isEmpty() && pause >= settings.readerPoll().toMillis()) {
                pause = quietPause;
                quietPause = Math.min(quietPause * 2, settings.readerPoll().toMillis() * 4);
            } else {
                quietPause = settings.readerPoll().toMillis();
            }
            try {
                Thread.sleep(pause);
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
