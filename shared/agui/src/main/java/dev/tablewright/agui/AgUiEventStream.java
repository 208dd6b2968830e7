package dev.tablewright.agui;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.door.FramedStream;
import dev.tablewright.door.StreamFraming;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.json.Json;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * AG-UI's HTTP + SSE transport: {@code 200 text/event-stream}, one event per {@code data:} line followed by a blank
 * line, flushed per event (what {@code @ag-ui/client}'s {@code HttpAgent} reads), through the kit's
 * {@link FramedStream}. Not thread-safe: one run writes.
 */
public final class AgUiEventStream {

    public static final Map<String, String> HEADERS = Map.of(
            "content-type", "text/event-stream",
            "cache-control", "no-cache",
            "connection", "keep-alive",
            "x-accel-buffering", "no");

    private final FramedStream out;
    private final List<Consumer<AgUiEvent>> observers = new ArrayList<>();

    public AgUiEventStream(HttpResponseStream response) {
        this.out = new FramedStream(response, FRAMING);
    }

    /** Sees every event as it is written, whether or not the client still reads (the message's assembler, a test). */
    public void observe(Consumer<AgUiEvent> observer) {
        observers.add(observer);
    }

    /** Sees every event as written on the wire (the recorder). */
    public void observeJson(Consumer<ObjectNode> observer) {
        out.observe(observer);
    }

    public void write(AgUiEvent event) {
        observers.forEach(o -> o.accept(event));
        out.write(event.json());
    }

    /** One event as its SSE frame: JSON has no raw newline, so one {@code data:} line holds it whole. */
    public static byte[] frame(AgUiEvent event) {
        return ("data: " + Json.write(event.json()) + "\n\n").getBytes(StandardCharsets.UTF_8);
    }

    /** How a recorded run is framed and replayed to another reader ({@code GET …/{threadId}/stream}): the same bytes. */
    public static final StreamFraming FRAMING = new StreamFraming() {
        @Override
        public Map<String, String> headers() {
            return HEADERS;
        }

        @Override
        public String frame(ObjectNode event) {
            return "data: " + Json.write(event) + "\n\n";
        }

        @Override
        public boolean ends(String frames) {
            return frames.contains("data: {\"type\":\"RUN_FINISHED\"") || frames.contains("data: {\"type\":\"RUN_ERROR\"");
        }

        @Override
        public void close(HttpResponseStream response, boolean ended) {
            if (!ended) {
                response.write(AgUiEventStream.frame(new AgUiEvent.RunError("The run went away before its end; run the thread again to continue.",
                        ErrorCode.UNAVAILABLE.wireName())));
                response.flush();
            }
            response.close();
        }
    };

    public boolean isClientGone() {
        return out.isClientGone();
    }

    public void close() {
        out.response().close();
    }

    public HttpResponseStream response() {
        return out.response();
    }
}
