package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.json.Json;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The SSE answer of one POST, started only when a message other than the final response must go first (a tool
 * call's {@code elicitation/create}): until then the POST is answered with plain JSON. Every message is one
 * {@code message} event, flushed at once.
 */
final class EventStream {

    private final HttpResponseStream response;
    private final Map<String, String> headers;
    private boolean started;

    EventStream(HttpResponseStream response, Map<String, String> headers) {
        this.response = response;
        this.headers = headers;
    }

    boolean started() {
        return started;
    }

    void send(JsonNode message) {
        start();
        response.write(("event: message\ndata: " + Json.write(message) + "\n\n").getBytes(StandardCharsets.UTF_8));
        response.flush();
    }

    /** An SSE comment: keeps proxies from closing a stream that waits for the user's answer. */
    void keepAlive() {
        if (started) {
            response.write(": waiting for the user's answer\n\n".getBytes(StandardCharsets.UTF_8));
            response.flush();
        }
    }

    boolean clientGone() {
        return response.isClientGone();
    }

    private void start() {
        if (!started) {
            started = true;
            Map<String, String> all = new LinkedHashMap<>(headers);
            all.put("content-type", "text/event-stream");
            all.put("cache-control", "no-cache");
            all.put("x-accel-buffering", "no");
            response.start(200, all);
        }
    }
}
