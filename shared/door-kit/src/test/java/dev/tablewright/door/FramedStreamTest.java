package dev.tablewright.door;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.http.stream.InMemoryResponseStream;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A door's stream on a real in-memory response: observed, framed, flushed per part, started by the first. */
class FramedStreamTest {

    /** JSON lines; a part of type {@code unframeable} cannot be framed, as a part the door's JSON writer refuses. */
    static final StreamFraming LINES = new StreamFraming() {
        public Map<String, String> headers() {
            return Map.of("content-type", "application/x-ndjson");
        }

        public String frame(ObjectNode part) {
            return part.path("type").asText().equals("unframeable") ? null : Json.write(part) + "\n";
        }

        public boolean ends(String frames) {
            return frames.contains("\"end\"");
        }

        public void close(HttpResponseStream response, boolean ended) {
            response.close();
        }
    };

    @Test
    void eachPartIsObservedThenFramedAndFlushedTheFirstStartingTheResponse() {
        InMemoryResponseStream response = new InMemoryResponseStream();
        FramedStream out = new FramedStream(response, LINES);
        List<String> seen = new ArrayList<>();
        out.observe(part -> seen.add(part.path("type").asText() + (response.isStarted() ? " after start" : " before start")));
        assertNull(response.statusCode(), "nothing written: a refusal can still answer a status");

        out.write(Json.object().put("type", "start"));
        out.write(Json.object().put("type", "text").put("delta", "hi"));
        out.end("{\"type\":\"end\"}\n");

        assertEquals(200, response.statusCode());
        assertEquals("application/x-ndjson", response.headers().get("content-type"));
        assertEquals("{\"type\":\"start\"}\n{\"type\":\"text\",\"delta\":\"hi\"}\n{\"type\":\"end\"}\n", response.body());
        assertEquals(3, response.flushes().size(), "one flush a part, and the trailer's");
        assertEquals(List.of("start before start", "text after start"), seen, "the trailer is no part: nobody observes it");
    }

    @Test
    void aPartThatCannotBeFramedIsRefusedBeforeAnythingOfItIsWritten() {
        InMemoryResponseStream response = new InMemoryResponseStream();
        FramedStream out = new FramedStream(response, LINES);
        assertThrows(IllegalArgumentException.class, () -> out.write(Json.object().put("type", "unframeable")));
        assertNull(response.statusCode());
        assertTrue(response.body().isEmpty(), response.body());
    }
}
