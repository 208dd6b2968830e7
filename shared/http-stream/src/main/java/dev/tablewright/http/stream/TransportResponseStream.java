package dev.tablewright.http.stream;

import dev.tablewright.logging.StructuredLog;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The states of an {@link HttpResponseStream}, written once; a subclass is only the transport the bytes leave by
 * (the Lambda Runtime API's streamed response, the local gateway's HTTP exchange, memory).
 * <pre>
 *   not started --start--> started --write/flush--> ... --close or fail--> ended
 *        `--------------------- close or fail ----------------------------^
 *   client gone: recorded at most once, at any point before the end
 * </pre>
 * <ul>
 *   <li>{@link #start} once: a second call is refused ({@link IllegalStateException}), and so is a {@link #write}
 *       before it. A start after the end sends nothing (the response is over).</li>
 *   <li>Writes are buffered; a {@link #flush} sends all of them as one piece, and nothing when nothing waits.</li>
 *   <li>Once the client is gone or the response has ended, writes and flushes are dropped without an exception: a
 *       turn whose client left must not fail for it.</li>
 *   <li>The end happens once: the first {@link #close} or {@link #fail} wins, later ones do nothing. Close sends
 *       what is buffered first; fail drops it.</li>
 *   <li>The client leaving is recorded once, and only before the end (a transport closing its connection after a
 *       complete response is no departure). The {@link #onClientGone} callbacks then run once each, outside the
 *       lock; one registered afterwards runs at once.</li>
 * </ul>
 * {@link #sendHead} and {@link #sendBody} run under the stream's lock, in call order. {@link #endNormally} and
 * {@link #endFailed} run once, outside it: a transport may wait there for the other side's answer without holding
 * up a thread that asks {@link #isClientGone()}.
 */
public abstract class TransportResponseStream implements HttpResponseStream {

    private static final StructuredLog LOG = StructuredLog.of(TransportResponseStream.class);

    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private final List<Runnable> goneCallbacks = new ArrayList<>();
    private boolean started;
    private boolean ended;
    private boolean clientGone;

    /**
     * Sends the status line and headers, or returns the bytes that carry them ahead of the body (Lambda's prelude),
     * sent with the first flush. An {@link IOException} means the client is gone.
     */
    protected abstract byte[] sendHead(int statusCode, Map<String, String> headers) throws IOException;

    /** Sends one flush's bytes (never empty). An {@link IOException} means the client is gone. */
    protected abstract void sendBody(byte[] bytes) throws IOException;

    /**
     * Ends the response normally; called once, after the last flush.
     *
     * @param started    whether {@link #start} was called (a response closed before it answers 200 with no body)
     * @param clientGone whether the client had left (nobody reads what would be sent)
     */
    protected abstract void endNormally(boolean started, boolean clientGone);

    /**
     * Ends the response as failed; called once, with the unflushed bytes already dropped. Whether the failure can
     * still change the status depends on what the transport has sent, which only it knows.
     */
    protected abstract void endFailed(String errorType, String message, boolean started, boolean clientGone);

    /** Runs after each flush that sent bytes, outside the lock. Nothing by default. */
    protected void afterFlush() {
    }

    @Override
    public final void start(int statusCode, Map<String, String> headers) {
        List<Runnable> callbacks;
        synchronized (this) {
            if (started) {
                throw new IllegalStateException("response already started");
            }
            started = true;
            if (ended) {
                return;
            }
            try {
                byte[] ahead = sendHead(statusCode, headers);
                if (!clientGone) {
                    pending.writeBytes(ahead);
                }
                return;
            } catch (IOException e) {
                callbacks = markGone("sending the head failed: " + e.getMessage());
            }
        }
        callbacks.forEach(Runnable::run);
    }

    @Override
    public final synchronized boolean isStarted() {
        return started;
    }

    @Override
    public final synchronized void write(byte[] bytes) {
        if (!started) {
            throw new IllegalStateException("write before start");
        }
        if (!clientGone && !ended) {
            pending.writeBytes(bytes);
        }
    }

    @Override
    public final void flush() {
        List<Runnable> callbacks;
        synchronized (this) {
            if (clientGone || ended || pending.size() == 0) {
                return;
            }
            try {
                sendBody(pending.toByteArray());
                pending.reset();
                callbacks = null;
            } catch (IOException e) {
                callbacks = markGone("sending failed: " + e.getMessage());
            }
        }
        if (callbacks == null) {
            afterFlush();
        } else {
            callbacks.forEach(Runnable::run);
        }
    }

    @Override
    public final void fail(String errorType, String message) {
        Ending ending = end();
        if (ending != null) {
            endFailed(errorType, message, ending.started(), ending.clientGone());
        }
    }

    @Override
    public final void close() {
        flush();
        Ending ending = end();
        if (ending != null) {
            endNormally(ending.started(), ending.clientGone());
        }
    }

    /** What the transport's end is told: the state at the moment the response ended. */
    private record Ending(boolean started, boolean clientGone) {
    }

    /** Ends the response (dropping what was not flushed), or answers null when it had already ended. */
    private synchronized Ending end() {
        if (ended) {
            return null;
        }
        ended = true;
        pending.reset();
        return new Ending(started, clientGone);
    }

    /** Whether {@link #close} or {@link #fail} has ended the response. */
    public final synchronized boolean isEnded() {
        return ended;
    }

    @Override
    public final synchronized boolean isClientGone() {
        return clientGone;
    }

    @Override
    public final void onClientGone(Runnable callback) {
        synchronized (this) {
            if (!clientGone) {
                goneCallbacks.add(callback);
                return;
            }
        }
        callback.run();
    }

    /**
     * The transport noticed, outside a send, that nobody reads any more (the connection closed under it). Ignored
     * after the end.
     */
    protected final void clientLeft(String why) {
        List<Runnable> callbacks;
        synchronized (this) {
            if (ended) {
                return;
            }
            callbacks = markGone(why);
        }
        callbacks.forEach(Runnable::run);
    }

    /** Records the departure (once) and hands back the callbacks to run outside the lock. */
    private List<Runnable> markGone(String why) {
        if (clientGone) {
            return List.of();
        }
        clientGone = true;
        pending.reset();
        LOG.info("response stream gone", "why", why);
        List<Runnable> callbacks = List.copyOf(goneCallbacks);
        goneCallbacks.clear();
        return callbacks;
    }
}
