package dev.tablewright.aisdk.stream;

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
public final class InMemoryResponseStream implements HttpResponseStream {

    /** How the response ended: still open, closed normally, or failed with a type and message. */
    public record Ending(String state, String errorType, String message) {
        static final Ending OPEN = new Ending("open", null, null);
        static final Ending CLOSED = new Ending("closed", null, null);
    }

    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private final List<byte[]> flushes = new ArrayList<>();
    private final List<Runnable> goneCallbacks = new ArrayList<>();
    private Integer statusCode;
    private Map<String, String> headers = Map.of();
    private boolean clientGone;
    private Ending ending = Ending.OPEN;
    private Runnable onFlush = () -> { };

    @Override
    public synchronized void start(int statusCode, Map<String, String> headers) {
        if (this.statusCode != null) {
            throw new IllegalStateException("response already started");
        }
        this.statusCode = statusCode;
        this.headers = new LinkedHashMap<>(headers);
    }

    @Override
    public synchronized boolean isStarted() {
        return statusCode != null;
    }

    @Override
    public synchronized void write(byte[] bytes) {
        if (statusCode == null) {
            throw new IllegalStateException("write before start");
        }
        if (!clientGone && ending == Ending.OPEN) {
            pending.writeBytes(bytes);
        }
    }

    @Override
    public void flush() {
        Runnable hook;
        synchronized (this) {
            if (clientGone || pending.size() == 0) {
                return;
            }
            flushes.add(pending.toByteArray());
            pending.reset();
            hook = onFlush;
        }
        hook.run();
    }

    @Override
    public synchronized void fail(String errorType, String message) {
        if (ending == Ending.OPEN) {
            pending.reset();
            ending = new Ending("failed", errorType, message);
        }
    }

    @Override
    public void close() {
        flush();
        synchronized (this) {
            if (ending == Ending.OPEN) {
                ending = Ending.CLOSED;
            }
        }
    }

    @Override
    public synchronized boolean isClientGone() {
        return clientGone;
    }

    @Override
    public void onClientGone(Runnable callback) {
        boolean runNow;
        synchronized (this) {
            runNow = clientGone;
            if (!runNow) {
                goneCallbacks.add(callback);
            }
        }
        if (runNow) {
            callback.run();
        }
    }

    /** The client goes away: later writes are dropped and the callbacks run. */
    public void disconnect() {
        List<Runnable> callbacks;
        synchronized (this) {
            if (clientGone) {
                return;
            }
            clientGone = true;
            pending.reset();
            callbacks = List.copyOf(goneCallbacks);
            goneCallbacks.clear();
        }
        callbacks.forEach(Runnable::run);
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
