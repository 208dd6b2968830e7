package dev.tablewright.http.stream;

import java.util.Map;

/**
 * One streamed HTTP response, as the chat turn sees it: status and headers once, then the body in pieces,
 * each sent on {@link #flush()} so the client sees it as soon as it is made.
 *
 * <p>Implementations: the Lambda Runtime API streaming response (function URL, {@code RESPONSE_STREAM}), the
 * local gateway's HTTP exchange, and {@link InMemoryResponseStream} for tests.
 *
 * <p>A lost client never throws: once the connection is gone, {@link #isClientGone()} turns true, the
 * {@link #onClientGone} callbacks run once, and further writes are dropped. The turn polls or subscribes and
 * stops the model (no tokens paid for nobody).
 */
public interface HttpResponseStream {

    /** Sends the status line and headers. Exactly once, before any {@link #write}. */
    void start(int statusCode, Map<String, String> headers);

    boolean isStarted();

    /** Appends body bytes (buffered until {@link #flush()}). Requires {@link #start} first. */
    void write(byte[] bytes);

    /** Pushes everything written so far to the client. */
    void flush();

    /**
     * Ends the response as failed. Before {@link #start}: the invocation fails as a whole (no body was sent).
     * After it: the bytes already sent stay sent and the failure is reported out of band (on Lambda, the
     * {@code Lambda-Runtime-Function-Error-Type}/{@code -Body} trailers). The response is closed afterwards.
     * {@code message} must be plain: no secret, no stack trace.
     */
    void fail(String errorType, String message);

    /** Ends the response normally. Idempotent; a no-op after {@link #fail}. */
    void close();

    boolean isClientGone();

    /** Runs {@code callback} once when the client goes away (at once if it already has). */
    void onClientGone(Runnable callback);

    /** Convenience for an answer before any streaming: status, JSON content type, the whole body, close. */
    default void sendJson(int statusCode, byte[] jsonBody) {
        start(statusCode, Map.of("content-type", "application/json"));
        write(jsonBody);
        flush();
        close();
    }
}
