package dev.tablewright.agui;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Reads a {@code POST}ed {@code RunAgentInput} as {@code @ag-ui/core} 1.0's schema defines it, refusing what does
 * not conform with the field's path ({@code messages[2].role}, {@code resume[0].status}) and the problem. Unknown
 * members are allowed, as the protocol's loose objects allow them.
 */
public final class RunAgentInputParser {

    private static final Set<String> ROLES = Set.of("developer", "system", "assistant", "user", "tool", "activity", "reasoning");

    private RunAgentInputParser() {
    }

    public static RunAgentInput parse(String body) {
        JsonNode root;
        try {
            root = body == null || body.isBlank() ? null : Json.parse(body);
        } catch (JsonProcessingException e) {
            throw new RunInputRefused("body", "the body is not valid JSON");
        }
        if (root == null || !root.isObject()) {
            throw new RunInputRefused("body", "the body must be a RunAgentInput object");
        }
        String protocolVersion = optionalText(root, "protocolVersion", "protocolVersion");
        if (protocolVersion != null && !protocolVersion.equals("1") && !protocolVersion.startsWith("1.")) {
            throw new RunInputRefused("protocolVersion", "protocol version " + protocolVersion + " is not served: this door speaks AG-UI 1.x");
        }
        JsonNode state = root.get("state");
        if (state != null && !state.isNull()) {
            if (!state.isObject()) {
                throw new RunInputRefused("state", "must be an object");
            }
            JsonNode config = state.get("workingConfig");
            if (config != null && !config.isNull() && !config.isObject()) {
                throw new RunInputRefused("state.workingConfig", "must be a table config object or null");
            }
        }
        JsonNode forwarded = root.get("forwardedProps");
        return new RunAgentInput(requiredText(root, "threadId", "threadId"), requiredText(root, "runId", "runId"),
                optionalText(root, "parentRunId", "parentRunId"), protocolVersion, messages(root),
                state == null || state.isNull() ? null : state, tools(root), context(root),
                forwarded == null || forwarded.isNull() ? null : forwarded, resume(root));
    }

    private static List<RunAgentInput.Message> messages(JsonNode root) {
        JsonNode array = root.get("messages");
        if (array == null || !array.isArray()) {
            throw new RunInputRefused("messages", array == null ? "is required" : "must be an array");
        }
        List<RunAgentInput.Message> messages = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            String at = "messages[" + i + "]";
            JsonNode m = object(array.get(i), at);
            String role = requiredText(m, "role", at + ".role");
            if (!ROLES.contains(role)) {
                throw new RunInputRefused(at + ".role", "unknown role '" + role + "' (expected one of " + String.join(", ", ROLES) + ")");
            }
            String id = requiredText(m, "id", at + ".id");
            String content = content(m.get("content"), at + ".content", role);
            List<RunAgentInput.ToolCall> calls = new ArrayList<>();
            JsonNode toolCalls = m.get("toolCalls");
            if (toolCalls != null && !toolCalls.isNull()) {
                if (!toolCalls.isArray()) {
                    throw new RunInputRefused(at + ".toolCalls", "must be an array");
                }
                for (int c = 0; c < toolCalls.size(); c++) {
                    String callAt = at + ".toolCalls[" + c + "]";
                    JsonNode call = object(toolCalls.get(c), callAt);
                    JsonNode function = object(call.get("function"), callAt + ".function");
                    calls.add(new RunAgentInput.ToolCall(requiredText(call, "id", callAt + ".id"),
                            requiredText(function, "name", callAt + ".function.name"),
                            text(function, "arguments", callAt + ".function.arguments")));
                }
            }
            String toolCallId = role.equals("tool") ? requiredText(m, "toolCallId", at + ".toolCallId") : null;
            messages.add(new RunAgentInput.Message(id, role, content, calls, toolCallId, optionalText(m, "error", at + ".error")));
        }
        return messages;
    }

    /** A message's text: a string, or a part list whose text parts are joined; required but for assistants. */
    private static String content(JsonNode content, String at, String role) {
        if (content == null || content.isNull()) {
            if (role.equals("assistant") || role.equals("activity")) {
                return "";
            }
            throw new RunInputRefused(at, "is required");
        }
        if (content.isTextual()) {
            return content.asText();
        }
        if (content.isArray()) {
            StringBuilder text = new StringBuilder();
            for (int p = 0; p < content.size(); p++) {
                JsonNode part = object(content.get(p), at + "[" + p + "]");
                if ("text".equals(part.path("type").asText())) {
                    text.append(text(part, "text", at + "[" + p + "].text"));
                }
            }
            return text.toString();
        }
        if (content.isObject() && role.equals("activity")) {
            return "";
        }
        throw new RunInputRefused(at, "must be a string or an array of content parts");
    }

    private static List<RunAgentInput.FrontendTool> tools(JsonNode root) {
        List<RunAgentInput.FrontendTool> tools = new ArrayList<>();
        for (JsonNode t : optionalArray(root, "tools")) {
            String at = "tools[" + tools.size() + "]";
            object(t, at);
            JsonNode parameters = t.get("parameters");
            if (parameters != null && !parameters.isNull() && !parameters.isObject()) {
                throw new RunInputRefused(at + ".parameters", "must be a JSON Schema object");
            }
            tools.add(new RunAgentInput.FrontendTool(requiredText(t, "name", at + ".name"),
                    text(t, "description", at + ".description"),
                    parameters == null || parameters.isNull() ? Json.object().put("type", "object") : parameters));
        }
        return tools;
    }

    private static List<RunAgentInput.Context> context(JsonNode root) {
        List<RunAgentInput.Context> context = new ArrayList<>();
        for (JsonNode c : optionalArray(root, "context")) {
            String at = "context[" + context.size() + "]";
            object(c, at);
            context.add(new RunAgentInput.Context(text(c, "description", at + ".description"), text(c, "value", at + ".value")));
        }
        return context;
    }

    private static List<RunAgentInput.Resume> resume(JsonNode root) {
        List<RunAgentInput.Resume> resume = new ArrayList<>();
        for (JsonNode r : optionalArray(root, "resume")) {
            String at = "resume[" + resume.size() + "]";
            object(r, at);
            String status = requiredText(r, "status", at + ".status");
            RunAgentInput.Resume.Status parsed = switch (status) {
                case "resolved" -> RunAgentInput.Resume.Status.RESOLVED;
                case "cancelled" -> RunAgentInput.Resume.Status.CANCELLED;
                default -> throw new RunInputRefused(at + ".status", "must be \"resolved\" or \"cancelled\"");
            };
            JsonNode payload = r.get("payload");
            if (payload != null && payload.isNull()) {
                throw new RunInputRefused(at + ".payload", "must not be null (leave it out instead)");
            }
            resume.add(new RunAgentInput.Resume(requiredText(r, "interruptId", at + ".interruptId"), parsed, payload));
        }
        return resume;
    }

    private static Iterable<JsonNode> optionalArray(JsonNode root, String field) {
        JsonNode array = root.get(field);
        if (array == null || array.isNull()) {
            return List.of();
        }
        if (!array.isArray()) {
            throw new RunInputRefused(field, "must be an array");
        }
        return array;
    }

    private static JsonNode object(JsonNode node, String at) {
        if (node == null || !node.isObject()) {
            throw new RunInputRefused(at, node == null ? "is required" : "must be an object");
        }
        return node;
    }

    private static String requiredText(JsonNode node, String field, String at) {
        String value = text(node, field, at);
        if (value.isEmpty()) {
            throw new RunInputRefused(at, "must not be empty");
        }
        return value;
    }

    private static String text(JsonNode node, String field, String at) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            throw new RunInputRefused(at, "is required");
        }
        if (!value.isTextual()) {
            throw new RunInputRefused(at, "must be a string");
        }
        return value.asText();
    }

    private static String optionalText(JsonNode node, String field, String at) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : text(node, field, at);
    }
}
