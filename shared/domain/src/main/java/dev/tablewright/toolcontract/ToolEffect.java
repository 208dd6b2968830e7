package dev.tablewright.toolcontract;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.validation.ValidationError;

import java.util.List;

/**
 * What an ok answer did to the conversation's config, carrying what the caller acts on: the config a tool proposed,
 * the errors of one it found invalid, the preview it stored. A tool writes it explicitly; on the wire (the tool
 * envelope) it is the answer's {@code effect} name, which {@link ToolOutcomeJson} alone reads back.
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
    record InvalidConfig(List<ValidationError> errors) implements ToolEffect {
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
}
