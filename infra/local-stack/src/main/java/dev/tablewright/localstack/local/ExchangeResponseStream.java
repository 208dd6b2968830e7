package dev.tablewright.localstack.local;

import com.sun.net.httpserver.HttpExchange;
import dev.tablewright.http.stream.TransportResponseStream;
import dev.tablewright.logging.StructuredLog;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A streamed function's response over a local HTTP exchange: chunked transfer encoding, one chunk sent per
 * {@link #flush()}, so a client sees each event as the function makes it (as through a function URL in
 * {@code RESPONSE_STREAM} mode). The states are {@link TransportResponseStream}'s; a send that fails means the
 * client left.
 */
final class ExchangeResponseStream extends TransportResponseStream {

    private static final StructuredLog LOG = StructuredLog.of(ExchangeResponseStream.class);
    private static final byte[] INTERNAL_ERROR = "{\"message\":\"Internal Server Error\"}".getBytes(StandardCharsets.UTF_8);

    private final HttpExchange exchange;
    private final Map<String, String> extraHeaders;
    private OutputStream body;

    ExchangeResponseStream(HttpExchange exchange, Map<String, String> extraHeaders) {
        this.exchange = exchange;
        this.extraHeaders = extraHeaders;
    }

    @Override
    protected byte[] sendHead(int statusCode, Map<String, String> headers) throws IOException {
        extraHeaders.forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
        headers.forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
        exchange.sendResponseHeaders(statusCode, 0); // 0: chunked, length unknown
        body = exchange.getResponseBody();
        return new byte[0];
    }

    @Override
    protected void sendBody(byte[] bytes) throws IOException {
        body.write(bytes);
        body.flush(); // the JDK server sends the current chunk on flush
    }

    @Override
    protected void endNormally(boolean started, boolean clientGone) {
        if (!started) {
            try {
                exchange.sendResponseHeaders(200, -1);
            } catch (IOException ignored) {
                // client gone
            }
        }
        exchange.close();
    }

    @Override
    protected void endFailed(String errorType, String message, boolean started, boolean clientGone) {
        if (!started) {
            // Nothing sent yet: answer as a function URL does when the invocation fails.
            try {
                exchange.getResponseHeaders().set("content-type", "application/json");
                exchange.sendResponseHeaders(502, INTERNAL_ERROR.length);
                exchange.getResponseBody().write(INTERNAL_ERROR);
            } catch (IOException ignored) {
                // client gone
            }
        } else {
            // After the first byte Lambda reports the failure in trailers, which browsers do not read; the JDK
            // server cannot send trailers, so the failure goes to the gateway's log and the body ends.
            LOG.warn("stream failed after the first byte", "errorType", errorType, "errorMessage", message);
        }
        exchange.close();
    }
}
