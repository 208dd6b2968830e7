package dev.tablewright.tool;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/**
 * What an ok answer did to the conversation's config, carrying what the caller acts on: the config a tool proposed,
 * the errors of one it found invalid, the preview it stored. On the wire (the tool envelope) it is the answer's
 * {@code effect} name; the values are read from the answer's {@code output}.
 */
public sealed interface ToolEffect {

    /** The envelope's name for this effect; null for {@link None}. */
    String wireName();

    /** The answer changes nothing of the config. */
    record None() implements ToolEffect {
        public String wireName() {
            return null;
        }
    }

    /** A valid config, which becomes the conversation's working config. */
    record ProposedConfig(JsonNode config) implements ToolEffect {
        public String wireName() {
            return "proposed_config";
        }
    }

    /** The config given or built is not valid; {@code errors} say why (the model repairs, within a bound). */
    record InvalidConfig(List<JsonNode> errors) implements ToolEffect {
        public InvalidConfig {
            errors = List.copyOf(errors);
        }

        public String wireName() {
            return "invalid_config";
        }
    }

    /** A preview of {@code config} was stored as {@code previewId}, for the user to accept or reject. */
    record Previewed(String previewId, JsonNode config) implements ToolEffect {
        public String wireName() {
            return "previewed";
        }
    }

    ToolEffect NONE = new None();

    /** The effect an answer's {@code effect} name and {@code output} describe. */
    static ToolEffect of(String wireName, JsonNode output) {
        if (wireName == null || output == null) {
            return NONE;
        }
        return switch (wireName) {
            case "proposed_config" -> new ProposedConfig(output.get("config"));
            case "invalid_config" -> {
                List<JsonNode> errors = new ArrayList<>();
                output.path("errors").forEach(errors::add);
                yield new InvalidConfig(errors);
            }
            case "previewed" -> new Previewed(output.path("previewId").asText(null), output.get("config"));
            default -> NONE;
        };
    }
}
