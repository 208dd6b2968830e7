package dev.tablewright.door;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.StopSignal;
import dev.tablewright.conversation.TurnStreamLog;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.logging.TraceContext;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A turn's stream recorded through {@link TurnStreams#record} into a stream log kept in memory: what the log is told,
 * in which order, batched how, and the stop flag read back. Written against the public behaviour, so it moves with
 * the classes.
 */
class TurnStreamRecorderTest {

    /** A door's framing as small as it gets: each part a server-sent event, recorded as it would be sent. */
    static final StreamFraming SSE = new StreamFraming() {
        @Override
        public Map<String, String> headers() {
            return Map.of("content-type", "text/event-stream");
        }

        @Override
        public String frame(ObjectNode part) {
            return "data: " + Json.write(part) + "\n\n";
        }

        @Override
        public boolean ends(String frames) {
            return frames.contains("\"type\":\"finish\"");
        }

        @Override
        public void close(HttpResponseStream response, boolean ended) {
        }
    };

    /** A stream log in memory that says what it was told, and signals each batch. */
    static final class RecordedLog implements TurnStreamLog {
        final List<String> calls = new CopyOnWriteArrayList<>();
        final List<Batch> batches = new CopyOnWriteArrayList<>();
        final CountDownLatch firstBatch = new CountDownLatch(1);
        volatile boolean stopRequested;
        volatile boolean broken;

        @Override
        public void open(String ownerId, String conversationId, String streamId, Instant now) {
            if (broken) {
                throw new IllegalStateException("throttled");
            }
            calls.add("open " + ownerId + " " + conversationId);
        }

        @Override
        public void append(String ownerId, String conversationId, String streamId, Batch batch, Instant now) {
            calls.add("append " + batch.number());
            batches.add(batch);
            firstBatch.countDown();
        }

        @Override
        public void close(String ownerId, String conversationId, String streamId) {
            calls.add("close");
        }

        @Override
        public Optional<ActiveStream> active(String ownerId, String conversationId) {
            return Optional.of(new ActiveStream(streamIdOf(), Instant.now(), stopRequested));
        }

        volatile String streamId;

        private String streamIdOf() {
            return streamId;
        }

        @Override
        public List<Batch> read(String ownerId, String conversationId, String streamId, int fromBatch) {
            return new ArrayList<>(batches.subList(fromBatch, batches.size()));
        }

        @Override
        public boolean requestStop(String ownerId, String conversationId) {
            stopRequested = true;
            return true;
        }
    }

    private static TurnStreams streams(RecordedLog log, Duration interval, int maxEvents) {
        return new TurnStreams(log, new TurnStreams.Settings(new TurnStreamRecorder.Batching(interval, maxEvents, 64 * 1024),
                Duration.ofMillis(50), Duration.ofMinutes(2)), Clock.systemUTC());
    }

    @Test
    void theStreamIsOpenedThenWrittenInOrderAndClosed() {
        RecordedLog log = new RecordedLog();
        TurnStreamRecorder recorder = streams(log, Duration.ofMinutes(1), 1000).record("alice", "conv-1", new StopSignal(), SSE);
        for (int i = 0; i < 3; i++) {
            recorder.accept(Json.object().put("type", "text-delta").put("delta", "w" + i));
        }
        recorder.close();

        assertEquals(List.of("open alice conv-1", "append 0", "close"), log.calls, "one batch: the interval never passed");
        TurnStreamLog.Batch only = log.batches.getFirst();
        assertTrue(only.last());
        assertEquals(3, only.eventCount());
        assertEquals("data: {\"type\":\"text-delta\",\"delta\":\"w0\"}\n\ndata: {\"type\":\"text-delta\",\"delta\":\"w1\"}\n\n"
                + "data: {\"type\":\"text-delta\",\"delta\":\"w2\"}\n\n", only.events());
        assertEquals(new TurnStreamRecorder.Totals(1, 3, only.events().length(), 0), recorder.totals());
        assertTrue(recorder.streamId().startsWith("str"), recorder.streamId());
    }

    @Test
    void aFullBatchIsStoredAtOnceWithoutWaitingForTheInterval() throws Exception {
        RecordedLog log = new RecordedLog();
        TurnStreamRecorder recorder = streams(log, Duration.ofMinutes(1), 2).record("alice", "conv-2", new StopSignal(), SSE);
        recorder.accept(Json.object().put("type", "start"));
        recorder.accept(Json.object().put("type", "text-start"));
        assertTrue(log.firstBatch.await(10, TimeUnit.SECONDS), "two events fill a batch: stored before the minute is up");
        assertFalse(log.batches.getFirst().last());
        recorder.accept(Json.object().put("type", "finish"));
        recorder.close();
        assertEquals(List.of(0, 1), log.batches.stream().map(TurnStreamLog.Batch::number).toList());
        assertTrue(log.batches.getLast().last());
        assertEquals(1, log.batches.getLast().eventCount());
    }

    @Test
    void aStopRequestedFromAnyInvocationRaisesTheTurnsStopSignal() throws Exception {
        RecordedLog log = new RecordedLog();
        StopSignal stop = new StopSignal();
        CountDownLatch raised = new CountDownLatch(1);
        stop.onRaise(raised::countDown);
        TurnStreamRecorder recorder = streams(log, Duration.ofMillis(20), 1000).record("alice", "conv-3", stop, SSE);
        log.streamId = recorder.streamId();
        log.requestStop("alice", "conv-3");
        assertTrue(raised.await(10, TimeUnit.SECONDS), "read at the batches' beat");
        recorder.close();
        assertTrue(recorder.totals().stopChecks() >= 1);
    }

    @Test
    void aLogThatCannotOpenLeavesTheTurnUnrecordedWithoutFailingIt() {
        RecordedLog log = new RecordedLog();
        log.broken = true;
        TurnStreamRecorder recorder = streams(log, Duration.ofMillis(20), 1000).record("alice", "conv-4", new StopSignal(), SSE);
        recorder.accept(Json.object().put("type", "start"));
        recorder.close();
        assertEquals(List.of(), log.calls, "nothing appended, no marker cleared");
        assertEquals(0, recorder.totals().batches());
        assertFalse(TurnStreams.NONE.enabled());
    }

    @Test
    void theRecordersOwnLinesCarryTheTurnsIdsAndTrace() throws Exception {
        ByteArrayOutputStream lines = new ByteArrayOutputStream();
        StructuredLog.redirect(new PrintStream(lines, true, StandardCharsets.UTF_8));
        TraceContext trace = TraceContext.generate();
        try (StructuredLog.Scope ignored = StructuredLog.scope()) {
            TraceContext.begin(trace);
            StructuredLog.put("requestId", "req-5");
            TurnStreamRecorder recorder = streams(new RecordedLog(), Duration.ofMinutes(1), 1000).record("alice", "conv-5",
                    new StopSignal(), SSE);
            recorder.accept(Json.object().put("type", "start"));
            recorder.close();
        } finally {
            StructuredLog.redirect(System.out);
        }
        // written on the recorder's own thread, after the turn's last part
        String line = lines.toString(StandardCharsets.UTF_8).lines()
                .filter(l -> l.contains("\"message\":\"turn stream recorded\"")).findFirst().orElseThrow();
        JsonNode recorded = Json.parse(line);
        assertEquals(trace.traceId(), recorded.path("traceId").asText(), recorded.toString());
        assertEquals("req-5", recorded.path("requestId").asText(), recorded.toString());
        assertEquals("conv-5", recorded.path("conversationId").asText());
    }
}
