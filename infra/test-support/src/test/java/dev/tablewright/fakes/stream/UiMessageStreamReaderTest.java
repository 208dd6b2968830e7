package dev.tablewright.fakes.stream;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The one reader of the UI message stream: strict over a whole body (what the tests check the server wrote), part by
 * part and tolerant over a live response (what a client reads).
 */
class UiMessageStreamReaderTest {

    @Test
    void aWholeBodyIsItsPartsAndWhetherItEndedWithDone() {
        UiMessageStreamReader.Parsed parsed = UiMessageStreamReader.parse(
                "data: {\"type\":\"start\"}\n\ndata: {\"type\":\"text-delta\",\"delta\":\"hi\"}\n\ndata: [DONE]\n\n");
        assertEquals(List.of("start", "text-delta"), parsed.types());
        assertEquals("hi", parsed.ofType("text-delta").getFirst().path("delta").asText());
        assertTrue(parsed.done());
        assertFalse(UiMessageStreamReader.parse("data: {\"type\":\"start\"}\n\n").done());
        assertEquals(List.of(), UiMessageStreamReader.parse("").parts());
    }

    @Test
    void aWholeBodyThatBreaksTheProtocolIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> UiMessageStreamReader.parse("data: {\"x\":1}\n\n"));
        assertThrows(IllegalArgumentException.class, () -> UiMessageStreamReader.parse("data: not json\n\n"));
        assertThrows(IllegalArgumentException.class, () -> UiMessageStreamReader.parse("data: {\"type\":\"start\"}\n"));
        assertThrows(IllegalArgumentException.class, () -> UiMessageStreamReader.parse("event: x\ndata: {\"type\":\"start\"}\n\n"));
        assertThrows(IllegalArgumentException.class, () -> UiMessageStreamReader.parse(": comment\n\n"));
        assertThrows(IllegalArgumentException.class,
                () -> UiMessageStreamReader.parse("data: [DONE]\n\ndata: {\"type\":\"start\"}\n\n"));
    }

    @Test
    void aLiveResponseIsReadPartByPartAsItArrivesAndEndsAtDone() throws Exception {
        PipedOutputStream server = new PipedOutputStream();
        UiMessageStreamReader reader = new UiMessageStreamReader(new PipedInputStream(server));
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            server.write("data: {\"type\":\"start\"}\n\n".getBytes(StandardCharsets.UTF_8));
            assertEquals("start", reader.next().path("type").asText(), "the first part, before the rest is written");
            server.write("data: {\"type\":\"finish\"}\n\ndata: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
            assertEquals("finish", reader.next().path("type").asText());
            assertNull(reader.next(), "[DONE] ends it, whether or not the response has ended");
            assertTrue(reader.done());
        });
        server.close();
    }

    @Test
    void aLiveResponseSkipsAnEventThatHoldsNoPart() throws Exception {
        String body = ": keep-alive\n\nevent: ui\ndata:{\"type\":\"start\"}\n\ndata: not json\n\ndata: {\"x\":1}\n\n"
                + "data: {\"type\":\"text-delta\",\n"
                + "data: \"delta\":\"two lines\"}\n\ndata: {\"type\":\"fin";
        UiMessageStreamReader reader = new UiMessageStreamReader(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
        List<JsonNode> parts = new ArrayList<>();
        for (JsonNode part = reader.next(); part != null; part = reader.next()) {
            parts.add(part);
        }
        assertEquals(List.of("start", "text-delta"), parts.stream().map(p -> p.path("type").asText()).toList());
        assertEquals("two lines", parts.getLast().path("delta").asText(), "an event's data lines joined");
        assertFalse(reader.done(), "cut before [DONE]");
    }
}
