package dev.tablewright.fakes.stream;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads a UI message stream (the AI SDK's protocol, docs/stream-protocol.md): server-sent events, each one
 * {@code data:} line holding a JSON part, ended by {@code data: [DONE]}. The one reader of every Java client of the
 * stream: a live response is read part by part as it arrives ({@link #next}), an event that holds no part skipped
 * (the terminal chat, the evaluation harness, the benchmarks); a whole body is read strictly ({@link #parse}), as the
 * tests check what the server wrote.
 */
public final class UiMessageStreamReader {

    /** The parts of a stream and whether it ended with {@code data: [DONE]}. */
    public record Parsed(List<JsonNode> parts, boolean done) {
        public Parsed {
            parts = List.copyOf(parts);
        }

        public List<String> types() {
            return parts.stream().map(p -> p.path("type").asText()).toList();
        }

        public List<JsonNode> ofType(String type) {
            return parts.stream().filter(p -> type.equals(p.path("type").asText())).toList();
        }
    }

    private final BufferedReader lines;
    private final Consumer<String> onStray;
    private boolean done;

    /** A live response: an event that holds no part (a comment, data that is not a part, a cut last one) is skipped. */
    public UiMessageStreamReader(InputStream body) {
        this(new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8)), stray -> { });
    }

    private UiMessageStreamReader(BufferedReader lines, Consumer<String> onStray) {
        this.lines = lines;
        this.onStray = onStray;
    }

    /**
     * A whole body, strictly: every event must be one {@code data: } line holding a JSON object with a type, nothing
     * may follow {@code [DONE]}, and the body must end at an event boundary.
     *
     * @throws IllegalArgumentException naming the first event that breaks the protocol
     */
    public static Parsed parse(String body) {
        UiMessageStreamReader reader = new UiMessageStreamReader(new BufferedReader(new StringReader(body)), stray -> {
            throw new IllegalArgumentException(stray);
        });
        List<JsonNode> parts = new ArrayList<>();
        try {
            for (JsonNode part = reader.next(); part != null; part = reader.next()) {
                parts.add(part);
            }
            if (reader.done && reader.event() != null) {
                throw new IllegalArgumentException("event after [DONE]");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a string is never cut
        }
        return new Parsed(parts, reader.done);
    }

    /** The next part as it arrives, or null once the stream has ended: with {@code [DONE]} ({@link #done}) or without. */
    public JsonNode next() throws IOException {
        while (!done) {
            List<String> event = event();
            if (event == null) {
                return null;
            }
            if (event.size() != 1 || !event.getFirst().startsWith("data: ")) {
                onStray.accept("not a single data line: " + String.join("\n", event));
            }
            String data = data(event);
            if (data == null) {
                continue;
            }
            if (data.equals("[DONE]")) {
                done = true;
                return null;
            }
            JsonNode part = part(data);
            if (part != null) {
                return part;
            }
        }
        return null;
    }

    /** Whether the stream ended with {@code data: [DONE]}. */
    public boolean done() {
        return done;
    }

    /** The lines of the next event, or null at the end of the body. */
    private List<String> event() throws IOException {
        List<String> event = new ArrayList<>();
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            if (!line.isEmpty()) {
                event.add(line);
            } else if (!event.isEmpty()) {
                return event;
            }
        }
        if (!event.isEmpty()) {
            onStray.accept("stream does not end at an event boundary: " + String.join("\n", event));
            return event;
        }
        return null;
    }

    /** The event's data as server-sent events join it (its {@code data:} lines; other fields and comments aside), or null. */
    private static String data(List<String> event) {
        List<String> data = new ArrayList<>();
        for (String line : event) {
            if (line.startsWith("data:")) {
                data.add(line.startsWith("data: ") ? line.substring(6) : line.substring(5));
            }
        }
        return data.isEmpty() ? null : String.join("\n", data);
    }

    private JsonNode part(String data) {
        JsonNode part;
        try {
            part = Json.parse(data);
        } catch (IOException | RuntimeException e) {
            onStray.accept("part is not JSON: " + data);
            return null;
        }
        if (!part.isObject() || !part.path("type").isTextual()) {
            onStray.accept("part without a type: " + data);
            return null;
        }
        return part;
    }
}
