package dev.tablewright.door;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.http.stream.HttpResponseStream;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A door's stream on the response: each part seen by the observers (the recorder, the message's assembler) whether or
 * not the client still reads, then framed in the door's {@link StreamFraming} and flushed at once. The response starts
 * ({@code 200} and the framing's headers) with the first part, so a turn refused before it can still answer an HTTP
 * status. Not thread-safe: one turn writes.
 */
public final class FramedStream {

    private final HttpResponseStream response;
    private final StreamFraming framing;
    private final List<Consumer<ObjectNode>> observers = new ArrayList<>();

    public FramedStream(HttpResponseStream response, StreamFraming framing) {
        this.response = response;
        this.framing = framing;
    }

    /** Sees every part as it is written. */
    public void observe(Consumer<ObjectNode> observer) {
        observers.add(observer);
    }

    /** Writes one part; a part that cannot be framed is refused before anything of it is written. */
    public void write(ObjectNode part) {
        observers.forEach(o -> o.accept(part));
        String frame = framing.frame(part);
        if (frame == null) {
            throw new IllegalArgumentException("the part cannot be framed: " + part.path("type").asText());
        }
        send(frame);
    }

    /** Writes what ends the stream in its framing (not a part: nobody observes it) and closes the response. */
    public void end(String trailer) {
        send(trailer);
        response.close();
    }

    private void send(String frame) {
        if (!response.isStarted()) {
            response.start(200, framing.headers());
        }
        response.write(frame.getBytes(StandardCharsets.UTF_8));
        response.flush();
    }

    public HttpResponseStream response() {
        return response;
    }

    public boolean isClientGone() {
        return response.isClientGone();
    }
}
