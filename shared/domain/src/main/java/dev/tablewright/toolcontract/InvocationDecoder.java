package dev.tablewright.toolcontract;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.json.Json;
import dev.tablewright.json.JsonFields;
import dev.tablewright.validation.ValidationError;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns what a tool Lambda receives into a {@link ToolInvocation}: the invocation envelope (docs/tools.md)
 * ({@code tool}, {@code toolCallId}, {@code conversationId}, {@code userId}, {@code arguments},
 * {@code workingConfig}, {@code sessionValues}, {@code traceparent}) or a bare arguments object. An envelope without
 * {@code workingConfig} (every one written before it existed, and every MCP call) reads as having none. What models send loosely is normalised here, once:
 * {@code arguments} and {@code config} may arrive as JSON text instead of objects.
 */
public final class InvocationDecoder {

    private static final Set<String> ENVELOPE_KEYS =
            Set.of("tool", "toolCallId", "conversationId", "userId", "arguments", "workingConfig", "sessionValues", "traceparent");

    private InvocationDecoder() {
    }

    /** Parses the raw invocation text; a syntax error becomes an {@code invalid_arguments} error with its position. */
    public static ToolInvocation decode(String text, ToolDefinition tool) throws InvalidInvocation {
        if (text == null || text.isBlank()) {
            throw invalid("the invocation is empty: send the envelope {\"tool\", \"arguments\", ...} or the arguments object");
        }
        JsonNode node;
        try {
            node = Json.parse(text);
        } catch (JsonProcessingException e) {
            throw invalid("the invocation is not valid JSON: " + describe(e));
        }
        return decode(node, tool);
    }

    public static ToolInvocation decode(JsonNode node, ToolDefinition tool) throws InvalidInvocation {
        if (!(node instanceof ObjectNode object)) {
            throw invalid("the invocation must be a JSON object, not " + kind(node));
        }
        if (!isEnvelope(object)) {
            return new ToolInvocation(tool.name(), null, null, null, normaliseArguments(object, tool), Map.of());
        }
        JsonFields envelope = JsonFields.of(object, "", JsonFields.STOP_AT_FIRST, JsonFields.Wording.NAMED);
        String name;
        String toolCallId;
        String conversationId;
        String userId;
        try {
            name = envelope.text("tool");
            toolCallId = envelope.text("toolCallId");
            conversationId = envelope.text("conversationId");
            userId = envelope.text("userId");
        } catch (JsonFields.Refused refused) {
            throw fieldError(refused.path(), refused.getMessage());
        }
        if (name != null && !name.equals(tool.name())) {
            throw new InvalidInvocation(new ToolError(ErrorCode.UNKNOWN_TOOL,
                    "this function runs the tool '" + tool.name() + "', not '" + name + "'"));
        }
        ObjectNode arguments = arguments(object.get("arguments"));
        // the trace context is passed on as sent, never refused: whoever continues it checks its form (a bad one
        // starts a new trace, as W3C Trace Context asks of a malformed traceparent)
        JsonNode trace = object.get("traceparent");
        String traceparent = trace != null && trace.isTextual() ? trace.textValue() : null;
        return new ToolInvocation(tool.name(), toolCallId, conversationId, userId, normaliseArguments(arguments, tool),
                sessionValues(object.get("sessionValues")), traceparent, workingConfig(object.get("workingConfig")));
    }

    /** The door's working config: a table config object, or none (absent or null). */
    private static ObjectNode workingConfig(JsonNode value) throws InvalidInvocation {
        if (value == null || value.isNull()) {
            return null;
        }
        if (value instanceof ObjectNode object) {
            return object;
        }
        throw fieldError("workingConfig", "workingConfig must be a table config object, not " + kind(value));
    }

    /**
     * An envelope names its tool or carries {@code arguments}; a bare arguments object is anything else. An
     * object holding both {@code tool} and {@code arguments} is an envelope even with keys of its own.
     */
    static boolean isEnvelope(ObjectNode object) {
        boolean hasTool = object.has("tool");
        boolean hasArguments = object.has("arguments");
        if (hasTool && hasArguments) {
            return true;
        }
        if (!hasTool && !hasArguments) {
            return false;
        }
        for (Iterator<String> names = object.fieldNames(); names.hasNext(); ) {
            if (!ENVELOPE_KEYS.contains(names.next())) {
                return false;
            }
        }
        return true;
    }

    private static ObjectNode arguments(JsonNode value) throws InvalidInvocation {
        if (value == null || value.isNull()) {
            return Json.object();
        }
        if (value instanceof ObjectNode object) {
            return object;
        }
        if (value.isTextual()) {
            // OpenAI-style tool calls carry their arguments as JSON text.
            String text = value.asText();
            if (text.isBlank()) {
                return Json.object();
            }
            try {
                if (Json.parse(text) instanceof ObjectNode object) {
                    return object;
                }
            } catch (JsonProcessingException e) {
                throw fieldError("arguments", "arguments is a string that is not valid JSON: " + describe(e));
            }
        }
        throw fieldError("arguments", "arguments must be a JSON object, not " + kind(value));
    }

    /** {@code config} as JSON text (models send both forms) becomes the object it encodes. */
    private static ObjectNode normaliseArguments(ObjectNode arguments, ToolDefinition tool) throws InvalidInvocation {
        JsonNode config = arguments.get("config");
        if (config == null || !config.isTextual()) {
            return arguments;
        }
        String text = config.asText().strip();
        JsonNode declared = tool.parameters() == null ? null : tool.parameters().path("properties").path("config").path("type");
        boolean declaredObject = declared != null && ("object".equals(declared.asText())
                || (declared.isArray() && declared.toString().contains("\"object\"")));
        if (!declaredObject && !text.startsWith("{")) {
            return arguments;
        }
        try {
            JsonNode parsed = Json.parse(text);
            if (!(parsed instanceof ObjectNode)) {
                throw fieldError("config", "config must be a JSON object (or its JSON text), not " + kind(parsed));
            }
            arguments.set("config", parsed);
            return arguments;
        } catch (JsonProcessingException e) {
            throw fieldError("config", "config is a string that is not valid JSON: " + describe(e));
        }
    }

    private static Map<String, String> sessionValues(JsonNode value) throws InvalidInvocation {
        if (value == null || value.isNull()) {
            return Map.of();
        }
        if (!(value instanceof ObjectNode object)) {
            throw fieldError("sessionValues", "sessionValues must be an object of name → value, not " + kind(value));
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode v = e.getValue();
            if (v.isNull()) {
                continue;
            }
            out.put(e.getKey(), v.isValueNode() ? v.asText() : v.toString());
        }
        return out;
    }

    /** Jackson's own words and the position, without the source excerpt or any class name. */
    public static String describe(JsonProcessingException e) {
        String message = e.getOriginalMessage();
        if (message != null) {
            int newline = message.indexOf('\n');
            message = newline >= 0 ? message.substring(0, newline) : message;
            if (message.length() > 300) {
                message = message.substring(0, 300) + "…";
            }
        }
        JsonLocation at = e.getLocation();
        return at == null || at.getLineNr() < 0 ? message : message + " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
    }

    static String kind(JsonNode node) {
        return node == null ? "null" : Json.kind(node);
    }

    private static InvalidInvocation invalid(String message) {
        return new InvalidInvocation(new ToolError(ErrorCode.INVALID_ARGUMENTS, message));
    }

    private static InvalidInvocation fieldError(String field, String message) {
        return new InvalidInvocation(new ToolError(ErrorCode.INVALID_ARGUMENTS, message, List.of(new ValidationError(field, message))));
    }
}
