package dev.tablewright.aisdk.stream;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads a UI message stream body back into its parts (tests, the local stack's tools). Strict: every event
 * must be one {@code data:} line holding a JSON object, except the final {@code [DONE]}.
 */
public final class UiMessageStreamReader {

    /** The parts of a stream and whether it ended with {@code data: [DONE]}. */
    public record Parsed(List<JsonNode> parts, boolean done) {
        public List<String> types() {
            return parts.stream().map(p -> p.path("type").asText()).toList();
        }

        public List<JsonNode> ofType(String type) {
            return parts.stream().filter(p -> type.equals(p.path("type").asText())).toList();
        }
    }

    private UiMessageStreamReader() {
    }

    public static Parsed parse(String body) {
        List<JsonNode> parts = new ArrayList<>();
        boolean done = false;
        for (String event : body.split("\n\n", -1)) {
            if (event.isEmpty()) {
                continue;
            }
            if (done) {
                throw new IllegalArgumentException("event after [DONE]: " + event);
            }
            if (!event.startsWith("data: ") || event.indexOf('\n') >= 0) {
                throw new IllegalArgumentException("not a single data line: " + event);
            }
            String data = event.substring("data: ".length());
            if (data.equals("[DONE]")) {
                done = true;
                continue;
            }
            try {
                JsonNode part = Json.parse(data);
                if (!part.isObject() || !part.path("type").isTextual()) {
                    throw new IllegalArgumentException("part without a type: " + data);
                }
                parts.add(part);
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException("part is not JSON: " + data, e);
            }
        }
        if (!body.isEmpty() && !body.endsWith("\n\n")) {
            throw new IllegalArgumentException("stream does not end at an event boundary");
        }
        return new Parsed(List.copyOf(parts), done);
    }
}
