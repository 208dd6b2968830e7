package dev.tablewright.localstack.local;

import com.sun.net.httpserver.HttpExchange;
import dev.tablewright.aisdk.stream.HttpResponseStream;
import dev.tablewright.logging.StructuredLog;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The chat function's {@link HttpResponseStream} over a local HTTP exchange: chunked transfer encoding, one
 * chunk sent per {@link #flush()}, so a client sees each event as the turn makes it (as through a function URL
 * in {@code RESPONSE_STREAM} mode). A write that fails means the client left: the stream turns
 * {@link #isClientGone() gone} and the callbacks run once.
 */
final class ExchangeResponseStream implements HttpResponseStream {

    private static final StructuredLog LOG = StructuredLog.of(ExchangeResponseStream.class);

    private final HttpExchange exchange;
    private final Map<String, String> extraHeaders;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private final List<Runnable> goneCallbacks = new ArrayList<>();
    private OutputStream body;
    private boolean started;
    private boolean ended;
    private boolean clientGone;

    ExchangeResponseStream(HttpExchange exchange, Map<String, String> extraHeaders) {
        this.exchange = exchange;
        this.extraHeaders = extraHeaders;
    }

    @Override
    public synchronized void start(int statusCode, Map<String, String> headers) {
        if (started) {
            throw new IllegalStateException("response already started");
        }
        started = true;
        extraHeaders.forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
        headers.forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
        try {
            exchange.sendResponseHeaders(statusCode, 0); // 0: chunked, length unknown
            body = exchange.getResponseBody();
        } catch (IOException e) {
            gone();
        }
    }

    @Override
    public synchronized boolean isStarted() {
        return started;
    }

    @Override
    public synchronized void write(byte[] bytes) {
        if (!started) {
            throw new IllegalStateException("write before start");
        }
        if (!clientGone && !ended) {
            pending.writeBytes(bytes);
        }
    }

    @Override
    public void flush() {
        List<Runnable> toRun = null;
        synchronized (this) {
            if (clientGone || ended || body == null || pending.size() == 0) {
                return;
            }
            try {
                body.write(pending.toByteArray());
                body.flush(); // the JDK server sends the current chunk on flush
                pending.reset();
            } catch (IOException e) {
                toRun = gone();
            }
        }
        runAll(toRun);
    }

    @Override
    public void fail(String errorType, String message) {
        synchronized (this) {
            if (ended) {
                return;
            }
            if (!started) {
                // Nothing sent yet: answer as a function URL does when the invocation fails.
                started = true;
                byte[] error = ("{\"message\":\"Internal Server Error\"}").getBytes(java.nio.charset.StandardCharsets.UTF_8);
                try {
                    exchange.getResponseHeaders().set("content-type", "application/json");
                    exchange.sendResponseHeaders(502, error.length);
                    exchange.getResponseBody().write(error);
                } catch (IOException ignored) {
                    // client gone
                }
            } else {
                // After the first byte Lambda reports the failure in trailers, which browsers do not read; the
                // JDK server cannot send trailers, so the failure goes to the gateway's log and the body ends.
                pending.reset();
                LOG.warn("chat stream failed after the first byte", "errorType", errorType, "errorMessage", message);
            }
            ended = true;
        }
        exchange.close();
    }

    @Override
    public void close() {
        flush();
        synchronized (this) {
            if (ended) {
                return;
            }
            ended = true;
            if (!started) {
                try {
                    exchange.sendResponseHeaders(200, -1);
                } catch (IOException ignored) {
                    // client gone
                }
            }
        }
        exchange.close();
    }

    @Override
    public synchronized boolean isClientGone() {
        return clientGone;
    }

    @Override
    public void onClientGone(Runnable callback) {
        boolean now;
        synchronized (this) {
            now = clientGone;
            if (!now) {
                goneCallbacks.add(callback);
            }
        }
        if (now) {
            callback.run();
        }
    }

    /** Marks the client gone; returns the callbacks to run outside the lock. */
    private List<Runnable> gone() {
        if (clientGone) {
            return null;
        }
        clientGone = true;
        pending.reset();
        List<Runnable> toRun = new ArrayList<>(goneCallbacks);
        goneCallbacks.clear();
        return toRun;
    }

    private static void runAll(List<Runnable> callbacks) {
        if (callbacks != null) {
            callbacks.forEach(Runnable::run);
        }
    }
}
