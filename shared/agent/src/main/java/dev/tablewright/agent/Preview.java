package dev.tablewright.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * A stored preview waiting for the user to keep or discard it, as the agent knows it from the preview tool's answer.
 *
 * @param previewId   the id the user's decision names
 * @param configId    the saved config it would update; null when it would create a new one
 * @param config      the config it would save (Config wire format)
 * @param baseVersion the version it was made from; null for a new config
 * @param rows        the sample rows it shows
 * @param summary     what it changes, in a sentence
 * @param expiresAt   when it can no longer be kept; null when the answer does not say
 * @param card        the tool's whole answer (plan, SQL, columns, diff, warnings) with its {@code configId}, for a door
 *                    that shows the preview as the tool wrote it
 */
public record Preview(String previewId, String configId, ObjectNode config, Long baseVersion, List<ObjectNode> rows,
                      String summary, Instant expiresAt, ObjectNode card) {

    public Preview {
        rows = List.copyOf(rows);
    }

    /** The preview tool's answer read as a preview (the caller has already added the working config's id). */
    public static Preview of(ObjectNode answer) {
        List<ObjectNode> rows = new ArrayList<>();
        answer.path("rows").forEach(r -> {
            if (r.isObject()) {
                rows.add((ObjectNode) r);
            }
        });
        JsonNode config = answer.get("config");
        return new Preview(text(answer, "previewId"), text(answer, "configId"),
                config != null && config.isObject() ? (ObjectNode) config : null,
                answer.path("baseVersion").canConvertToLong() ? answer.get("baseVersion").asLong() : null,
                rows, text(answer, "description"), instant(text(answer, "expiresAt")), answer);
    }

    private static String text(JsonNode node, String field) {
        return node.hasNonNull(field) ? node.get(field).asText() : null;
    }

    private static Instant instant(String text) {
        try {
            return text == null ? null : Instant.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
