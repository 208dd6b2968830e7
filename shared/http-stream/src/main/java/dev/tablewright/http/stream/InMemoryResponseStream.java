package dev.tablewright.http.stream;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A response kept in memory: what a turn sent, flush by flush. For in-process tests and local tools.
 * {@link #disconnect()} plays a client that goes away (every later write is dropped, as on a real socket).
 */
public final class InMemoryResponseStream extends TransportResponseStream {

    /** How the response ended: still open, closed normally, or failed with a type and message. */
    public record Ending(String state, String errorType, String message) {
        static final Ending OPEN = new Ending("open", null, null);
        static final Ending CLOSED = new Ending("closed", null, null);
    }

    private final List<byte[]> flushes = new ArrayList<>();
    private Integer statusCode;
    private Map<String, String> headers = Map.of();
    private Ending ending = Ending.OPEN;
    private Runnable onFlush = () -> { };

    @Override
    protected synchronized byte[] sendHead(int statusCode, Map<String, String> headers) {
        this.statusCode = statusCode;
        this.headers = new LinkedHashMap<>(headers);
        return new byte[0];
    }

    @Override
    protected synchronized void sendBody(byte[] bytes) {
        flushes.add(bytes);
    }

    @Override
    protected void afterFlush() {
        Runnable hook;
        synchronized (this) {
            hook = onFlush;
        }
        hook.run();
    }

    @Override
    protected synchronized void endNormally(boolean started, boolean clientGone) {
        ending = Ending.CLOSED;
    }

    @Override
    protected synchronized void endFailed(String errorType, String message, boolean started, boolean clientGone) {
        ending = new Ending("failed", errorType, message);
    }

    /** The client goes away: later writes are dropped and the callbacks run. */
    public void disconnect() {
        clientLeft("disconnected");
    }

    /** Runs after every flush that sent bytes (a test can disconnect after the n-th event, say). */
    public synchronized void onFlush(Runnable hook) {
        this.onFlush = hook;
    }

    public synchronized Integer statusCode() {
        return statusCode;
    }

    public synchronized Map<String, String> headers() {
        return Map.copyOf(headers);
    }

    /** The body as flushed, one entry per flush. */
    public synchronized List<byte[]> flushes() {
        return List.copyOf(flushes);
    }

    public synchronized String body() {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        flushes.forEach(all::writeBytes);
        return all.toString(StandardCharsets.UTF_8);
    }

    public synchronized Ending ending() {
        return ending;
    }
}
