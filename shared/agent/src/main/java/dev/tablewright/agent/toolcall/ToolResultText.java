package dev.tablewright.agent.toolcall;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;

/**
 * A tool's output as the model reads it. A valid config that a tool returns becomes the turn's working config
 * (summarised in the system prompt, filled in for the next tool), so the model is not made to read the whole config
 * again: it is replaced by a short note. The client still gets the full output.
 */
public final class ToolResultText {

    public static final String CONFIG_NOTE = "(omitted: this is now the working config, summarised in the system prompt; "
            + "omit `config` in the next tool call to use it)";

    private ToolResultText() {
    }

    public static String of(JsonNode output) {
        if (output == null || output.isNull()) {
            return "null";
        }
        if (output.isTextual()) {
            return output.asText();
        }
        if (output.isObject() && output.path("valid").asBoolean(false) && output.path("config").isObject()) {
            ObjectNode trimmed = ((ObjectNode) output).deepCopy();
            trimmed.put("config", CONFIG_NOTE);
            return Json.write(trimmed);
        }
        return Json.write(output);
    }
}
