package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.ToolEffect;
import dev.tablewright.toolcontract.ToolError;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.validation.ValidationError;
import io.modelcontextprotocol.spec.McpSchema;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A tool's answer as an MCP {@code CallToolResult}: the output as JSON text (what every client shows the model) and,
 * for a tool with an {@code outputSchema}, as {@code structuredContent}. A config the tool found invalid, or an error,
 * is a result with {@code isError} whose text names each field, as the chat shows it: the model repairs from it.
 */
final class ToolResults {

    private ToolResults() {
    }

    static McpSchema.CallToolResult of(ToolOutcome outcome, boolean structured) {
        if (outcome instanceof ToolOutcome.Ok ok) {
            JsonNode output = ok.output() == null ? Json.object() : ok.output();
            boolean invalid = ok.effect() instanceof ToolEffect.InvalidConfig;
            List<McpSchema.Content> content = new ArrayList<>();
            if (invalid) {
                content.add(text(problemsText("The config is not valid", output.path("errors"))));
            }
            content.add(text(Json.write(output)));
            // an error result carries no structuredContent: clients check it against the outputSchema even then, and
            // a refusal's shape is the tool's, not the schema's
            return new McpSchema.CallToolResult(content, invalid,
                    structured && !invalid && output.isObject() ? Json.MAPPER.convertValue(output, Map.class) : null, null);
        }
        // a call that still needs input once its questions are over is not answered here (ToolCall asks first)
        ToolError error = outcome instanceof ToolOutcome.Failed failed ? failed.error() : null;
        String message = error == null ? "the tool failed" : error.message();
        StringBuilder text = new StringBuilder(error == null || error.code() == null ? "" : error.code().wireName() + ": ").append(message);
        if (error != null) {
            for (ValidationError e : error.errors()) {
                text.append("\n- ").append(e.field()).append(": ").append(e.message());
            }
        }
        return failure(text.toString());
    }

    /** An error result the model and the user can read (never a stack trace). */
    static McpSchema.CallToolResult failure(String text) {
        return new McpSchema.CallToolResult(List.of(text(text)), true, null, null);
    }

    static McpSchema.CallToolResult success(JsonNode output, boolean structured) {
        return new McpSchema.CallToolResult(List.of(text(Json.write(output))), false,
                structured ? Json.MAPPER.convertValue(output, Map.class) : null, null);
    }

    private static String problemsText(String heading, JsonNode errors) {
        StringBuilder out = new StringBuilder(heading).append(':');
        for (JsonNode e : errors) {
            out.append("\n- ").append(e.path("field").asText("")).append(": ").append(e.path("message").asText(""));
        }
        return out.toString();
    }

    static McpSchema.TextContent text(String text) {
        return new McpSchema.TextContent(text);
    }
}
