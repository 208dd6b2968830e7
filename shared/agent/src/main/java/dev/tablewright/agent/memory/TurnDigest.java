package dev.tablewright.agent.memory;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.agent.model.ModelMessage;
import dev.tablewright.agent.model.ToolCallRequest;
import dev.tablewright.json.Json;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A turn in one line, for the model once the turn is no longer sent whole: what the user asked, what each tool call
 * did to the config (proposed a valid one, refused an invalid one, previewed it under a preview id, asked for input,
 * failed) and the start of the answer. Read from the turn's messages alone, so a turn rebuilt from a client's
 * history digests the same as one the agent recorded.
 */
public final class TurnDigest {

    /** How much of what the user asked is kept, and of the answer (the working config says what came of it). */
    static final int ASKED_CHARS = 120;
    static final int ANSWERED_CHARS = 80;

    private TurnDigest() {
    }

    public static String of(List<ModelMessage> messages) {
        String asked = null;
        String answered = null;
        Map<String, String> calls = new HashMap<>();
        List<String> did = new ArrayList<>();
        for (ModelMessage m : messages) {
            switch (m) {
                case ModelMessage.User u -> asked = asked == null ? u.text() : asked + " / " + u.text();
                case ModelMessage.Assistant a -> {
                    for (ToolCallRequest c : a.toolCalls()) {
                        calls.put(c.id(), c.name());
                    }
                    if (!a.text().isBlank()) {
                        answered = a.text();
                    }
                }
                case ModelMessage.ToolResult r -> did.add(calls.getOrDefault(r.toolCallId(), "a tool") + " " + effect(r.content()));
                case ModelMessage.System s -> {
                }
            }
        }
        StringBuilder line = new StringBuilder("The user asked: ").append(quote(asked, ASKED_CHARS));
        if (!did.isEmpty()) {
            line.append("; ").append(String.join(", ", did));
        }
        if (answered != null) {
            line.append("; you answered: ").append(quote(answered, ANSWERED_CHARS));
        }
        return line.toString();
    }

    private static String effect(String content) {
        JsonNode result;
        try {
            result = Json.parse(content);
        } catch (Exception e) {
            return "answered";
        }
        if (result.has("error")) {
            JsonNode error = result.get("error");
            String code = error.path("code").asText(error.isTextual() ? error.asText() : "");
            return code.isEmpty() ? "failed" : "failed (" + code + ")";
        }
        if (result.hasNonNull("previewId")) {
            String name = result.path("config").path("name").asText("");
            return "previewed the config as " + result.get("previewId").asText() + (name.isEmpty() ? "" : " (" + name + ")");
        }
        if (result.has("valid")) {
            return result.get("valid").asBoolean() ? "proposed a valid config" : "found the config invalid";
        }
        return "answered";
    }

    private static String quote(String text, int max) {
        if (text == null) {
            return "(nothing)";
        }
        String t = text.strip().replaceAll("\\s+", " ");
        return "\"" + (t.length() <= max ? t : t.substring(0, max - 1) + "…") + "\"";
    }
}
