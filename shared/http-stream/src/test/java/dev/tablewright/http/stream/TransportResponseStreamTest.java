package dev.tablewright.http.stream;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The state machine under every response stream (the Runtime API's, the local gateway's, the in-memory one),
 * against a transport that writes down what it is asked to do.
 */
class TransportResponseStreamTest {

    /** A transport that records each call; {@code prelude} is what its head puts ahead of the body, as Lambda's does. */
    static final class RecordingTransport extends TransportResponseStream {
        final List<String> calls = new ArrayList<>();
        final String prelude;
        boolean sendsFail;
        boolean lockHeldInLastCallback;

        RecordingTransport(String prelude) {
            this.prelude = prelude;
        }

        @Override
        protected byte[] sendHead(int statusCode, Map<String, String> headers) throws IOException {
            calls.add("head " + statusCode);
            if (sendsFail) {
                throw new IOException("broken pipe");
            }
            return prelude.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        protected void sendBody(byte[] bytes) throws IOException {
            if (sendsFail) {
                throw new IOException("broken pipe");
            }
            calls.add("body " + new String(bytes, StandardCharsets.UTF_8));
        }

        @Override
        protected void endNormally(boolean started, boolean clientGone) {
            lockHeldInLastCallback = Thread.holdsLock(this);
            calls.add("end started=" + started + " gone=" + clientGone);
        }

        @Override
        protected void endFailed(String errorType, String message, boolean started, boolean clientGone) {
            lockHeldInLastCallback = Thread.holdsLock(this);
            calls.add("failed " + errorType + " started=" + started + " gone=" + clientGone);
        }

        @Override
        protected void afterFlush() {
            calls.add("after flush, lock held=" + Thread.holdsLock(this));
        }

        void leave() {
            clientLeft("test");
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void startsOnceAndRefusesAWriteBeforeTheStart() {
        RecordingTransport stream = new RecordingTransport("");
        assertThrows(IllegalStateException.class, () -> stream.write(bytes("early")));
        assertFalse(stream.isStarted());
        stream.start(200, Map.of());
        assertTrue(stream.isStarted());
        assertThrows(IllegalStateException.class, () -> stream.start(500, Map.of()));
        assertEquals(List.of("head 200"), stream.calls);
    }

    @Test
    void writesWaitForAFlushWhichSendsThemAsOnePieceAfterTheHeadsBytes() {
        RecordingTransport stream = new RecordingTransport("P|");
        stream.start(200, Map.of());
        stream.write(bytes("a"));
        stream.write(bytes("b"));
        assertEquals(List.of("head 200"), stream.calls, "nothing sent before the flush");
        stream.flush();
        stream.flush(); // nothing waits: nothing sent
        stream.write(bytes("c"));
        stream.flush();
        assertEquals(List.of("head 200", "body P|ab", "after flush, lock held=false", "body c", "after flush, lock held=false"),
                stream.calls);
    }

    @Test
    void closeSendsWhatWaitsAndEndsOnceWhateverComesAfter() {
        RecordingTransport stream = new RecordingTransport("");
        stream.start(200, Map.of());
        stream.write(bytes("last"));
        stream.close();
        assertTrue(stream.isEnded());
        assertFalse(stream.lockHeldInLastCallback, "the transport ends the response outside the lock");
        stream.close();
        stream.fail("Late", "too late");
        stream.write(bytes("dropped"));
        stream.flush();
        assertEquals(List.of("head 200", "body last", "after flush, lock held=false", "end started=true gone=false"), stream.calls);
    }

    @Test
    void aFailureDropsWhatWasNotFlushedAndEndsOnce() {
        RecordingTransport stream = new RecordingTransport("");
        stream.start(200, Map.of());
        stream.write(bytes("sent"));
        stream.flush();
        stream.write(bytes("never sent"));
        stream.fail("IllegalStateException", "the turn failed");
        assertFalse(stream.lockHeldInLastCallback, "the transport reports the failure outside the lock");
        stream.fail("Again", "ignored");
        stream.close();
        assertEquals(List.of("head 200", "body sent", "after flush, lock held=false",
                "failed IllegalStateException started=true gone=false"), stream.calls);
    }

    @Test
    void closedOrFailedBeforeTheStartTheTransportIsToldSoAndALateStartSendsNothing() {
        RecordingTransport closed = new RecordingTransport("");
        closed.close();
        assertEquals(List.of("end started=false gone=false"), closed.calls);

        RecordingTransport failed = new RecordingTransport("");
        failed.fail("Boom", "before the first byte");
        failed.start(200, Map.of());
        failed.write(bytes("dropped"));
        failed.close();
        assertEquals(List.of("failed Boom started=false gone=false"), failed.calls);
    }

    @Test
    void aSendThatFailsMeansTheClientIsGoneAndLaterWritesAreDroppedWithoutAnException() {
        RecordingTransport stream = new RecordingTransport("");
        int[] calls = {0};
        boolean[] lockHeld = {true};
        stream.onClientGone(() -> {
            calls[0]++;
            lockHeld[0] = Thread.holdsLock(stream);
        });
        stream.start(200, Map.of());
        stream.write(bytes("a"));
        stream.sendsFail = true;
        stream.flush();
        assertTrue(stream.isClientGone());
        assertEquals(1, calls[0]);
        assertFalse(lockHeld[0], "the callbacks run outside the lock");

        stream.sendsFail = false;
        stream.write(bytes("b"));
        stream.flush();
        stream.leave();
        assertEquals(1, calls[0], "the departure is recorded once");
        stream.onClientGone(() -> calls[0]++);
        assertEquals(2, calls[0], "a callback registered afterwards runs at once");
        stream.close();
        assertEquals(List.of("head 200", "end started=true gone=true"), stream.calls);
    }

    @Test
    void aHeadThatCannotBeSentMeansTheClientIsGone() {
        RecordingTransport stream = new RecordingTransport("");
        int[] calls = {0};
        stream.onClientGone(() -> calls[0]++);
        stream.sendsFail = true;
        stream.start(200, Map.of());
        assertTrue(stream.isStarted());
        assertTrue(stream.isClientGone());
        assertEquals(1, calls[0]);
        stream.write(bytes("dropped"));
        stream.fail("Boom", "after the client left");
        assertEquals(List.of("head 200", "failed Boom started=true gone=true"), stream.calls);
    }

    @Test
    void aClientThatLeavesAfterTheEndChangesNothing() {
        RecordingTransport stream = new RecordingTransport("");
        int[] calls = {0};
        stream.onClientGone(() -> calls[0]++);
        stream.start(200, Map.of());
        stream.close();
        stream.leave();
        assertFalse(stream.isClientGone(), "a complete response was not abandoned");
        assertEquals(0, calls[0]);
    }

    @Test
    void theInMemoryStreamKeepsTheSameRules() {
        InMemoryResponseStream stream = new InMemoryResponseStream();
        assertThrows(IllegalStateException.class, () -> stream.write(bytes("early")));
        stream.start(201, Map.of("content-type", "text/plain"));
        assertThrows(IllegalStateException.class, () -> stream.start(200, Map.of()));
        stream.write(bytes("one"));
        stream.flush();
        stream.write(bytes("two"));
        stream.fail("Boom", "plain message");
        stream.close();
        assertEquals("one", stream.body());
        assertEquals(new InMemoryResponseStream.Ending("failed", "Boom", "plain message"), stream.ending());
        assertEquals(201, stream.statusCode());
    }
}
