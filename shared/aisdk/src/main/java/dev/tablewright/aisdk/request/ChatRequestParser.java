package dev.tablewright.aisdk.request;

import dev.tablewright.agent.PageContext;
import dev.tablewright.agent.toolcall.ClientTool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;
import dev.tablewright.json.JsonFields;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the chat request body. Tolerant of the part types the turn does not use (step-start is a boundary;
 * reasoning, source-*, file, data-* and unknown types are skipped: clients send them back with history), strict about the ones
 * it does use (text, {@code tool-<name>}, {@code dynamic-tool}): a malformed one is a {@link BadChatRequest}
 * naming the field.
 */
public final class ChatRequestParser {

    public static final int MAX_MESSAGES = 400;
    public static final int MAX_CLIENT_TOOLS = 32;

    private static final Set<String> ROLES = Set.of("system", "user", "assistant");
    /** Every tool part state of the AI SDK's UI messages, 5.x to 7.x (the approval states came with 6.x). */
    private static final Set<String> TOOL_STATES = Set.of("input-streaming", "input-available", "approval-requested",
            "approval-responded", "output-available", "output-error", "output-denied");
    private static final Pattern TOOL_NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    public ChatRequest parse(String body) throws BadChatRequest {
        JsonNode root;
        try {
            root = Json.parse(body == null ? "" : body);
        } catch (Exception e) {
            throw new BadChatRequest("body", "the body is not valid JSON");
        }
        return parse(root);
    }

    public ChatRequest parse(JsonNode root) throws BadChatRequest {
        if (root == null || !root.isObject()) {
            throw new BadChatRequest("body", "the body must be a JSON object");
        }
        JsonNode idNode = root.get("id");
        if (idNode != null && !idNode.isNull() && !(idNode.isTextual() && dev.tablewright.id.PlainId.isValid(idNode.textValue()))) {
            // the conversation id keys input requests, saved values and the stored conversation, and is a route's path id
            throw new BadChatRequest("id", "id must be " + dev.tablewright.id.PlainId.RULE);
        }
        String id = optionalText(root, "", "id");
        String trigger = optionalText(root, "", "trigger");
        String messageId = optionalText(root, "", "messageId");
        JsonNode approvalsNode = root.get("toolApprovals");
        if (approvalsNode != null && !approvalsNode.isNull() && !approvalsNode.isBoolean()) {
            throw new BadChatRequest("toolApprovals", "toolApprovals must be true or false");
        }
        boolean toolApprovals = approvalsNode != null && approvalsNode.asBoolean(false);
        JsonNode messagesNode = root.get("messages");
        JsonNode newMessage = root.get("message");
        if (newMessage != null && !newMessage.isNull()) {
            // the AI SDK's message-persistence form: only the new message; the server holds the history
            if (messagesNode != null && !messagesNode.isNull()) {
                throw new BadChatRequest("message", "send either messages (the whole conversation) or message (the new one), not both");
            }
            if (id == null) {
                throw new BadChatRequest("id", "a request with only the new message needs the conversation's id");
            }
            return new ChatRequest(id, List.of(message(newMessage, "message")), trigger, messageId,
                    context(root.get("context")), clientTools(root.get("clientTools")), true, toolApprovals);
        }
        if (messagesNode == null || !messagesNode.isArray() || messagesNode.isEmpty()) {
            throw new BadChatRequest("messages", "messages must be a non-empty array of UI messages (or send the conversation's id and the new message)");
        }
        if (messagesNode.size() > MAX_MESSAGES) {
            throw new BadChatRequest("messages", "at most " + MAX_MESSAGES + " messages are accepted (got " + messagesNode.size() + ")");
        }
        List<UiMessage> messages = new ArrayList<>(messagesNode.size());
        for (int i = 0; i < messagesNode.size(); i++) {
            messages.add(message(messagesNode.get(i), "messages[" + i + "]"));
        }
        return new ChatRequest(id, messages, trigger, messageId, context(root.get("context")), clientTools(root.get("clientTools")), false, toolApprovals);
    }

    /** One UI message (a stored one, or the body's), checked like the body's messages; {@code path} names it in errors. */
    public UiMessage message(JsonNode node, String path) throws BadChatRequest {
        if (node == null || !node.isObject()) {
            throw new BadChatRequest(path, "each message must be an object");
        }
        String role = optionalText(node, path, "role");
        if (role == null || !ROLES.contains(role)) {
            throw new BadChatRequest(path + ".role", "role must be system, user or assistant");
        }
        JsonNode partsNode = node.get("parts");
        if (partsNode == null || !partsNode.isArray()) {
            throw new BadChatRequest(path + ".parts", "parts must be an array");
        }
        List<UiPart> parts = new ArrayList<>(partsNode.size());
        for (int i = 0; i < partsNode.size(); i++) {
            parts.add(part(partsNode.get(i), path + ".parts[" + i + "]"));
        }
        return new UiMessage(optionalText(node, path, "id"), role, parts, node);
    }

    private UiPart part(JsonNode node, String path) throws BadChatRequest {
        if (node == null || !node.isObject()) {
            throw new BadChatRequest(path, "each part must be an object");
        }
        JsonNode typeNode = node.get("type");
        if (typeNode == null || !typeNode.isTextual()) {
            throw new BadChatRequest(path + ".type", "a part needs a string type");
        }
        String type = typeNode.asText();
        if (type.equals("text")) {
            JsonNode text = node.get("text");
            if (text == null || !text.isTextual()) {
                throw new BadChatRequest(path + ".text", "a text part needs a string text");
            }
            return new UiPart.Text(text.asText());
        }
        if (type.equals("step-start")) {
            return new UiPart.StepStart();
        }
        if (type.equals("dynamic-tool")) {
            String name = optionalText(node, path, "toolName");
            if (name == null) {
                throw new BadChatRequest(path + ".toolName", "a dynamic-tool part needs a toolName");
            }
            return toolPart(node, path, name);
        }
        if (type.startsWith("tool-")) {
            return toolPart(node, path, type.substring("tool-".length()));
        }
        return new UiPart.Other(type);
    }

    private UiPart.ToolCall toolPart(JsonNode node, String path, String name) throws BadChatRequest {
        if (!TOOL_NAME.matcher(name).matches()) {
            throw new BadChatRequest(path + ".type", "a tool part's name must be 1 to 64 letters, digits, _ or -");
        }
        String toolCallId = optionalText(node, path, "toolCallId");
        if (toolCallId == null || toolCallId.isEmpty()) {
            throw new BadChatRequest(path + ".toolCallId", "a tool part needs a toolCallId");
        }
        String state = optionalText(node, path, "state");
        if (state == null || !TOOL_STATES.contains(state)) {
            throw new BadChatRequest(path + ".state", "a tool part's state must be one of " + String.join(", ", TOOL_STATES.stream().sorted().toList()));
        }
        // As the AI SDK keeps them: input may be absent (still streaming, or the model's arguments did not parse: then
        // the text it sent is in rawInput, and the part is output-error), and output may be absent where it is unknown.
        JsonNode input = node.get("input");
        if (input == null || input.isNull()) {
            JsonNode raw = node.get("rawInput");
            input = raw == null || raw.isNull() ? null : raw;
        }
        JsonNode output = node.get("output");
        String errorText = optionalText(node, path, "errorText");
        if (state.equals("output-error") && errorText == null) {
            throw new BadChatRequest(path + ".errorText", "a tool part in state output-error needs its errorText");
        }
        return new UiPart.ToolCall(name, toolCallId, state, input, output, errorText, approval(node.get("approval"), path + ".approval", state));
    }

    /** A tool part's {@code approval}: required with an id in the approval states, {@code approved} once answered. */
    private static UiPart.Approval approval(JsonNode node, String path, String state) throws BadChatRequest {
        boolean needed = state.startsWith("approval-");
        if (node == null || node.isNull()) {
            if (needed) {
                throw new BadChatRequest(path, "a tool part in state " + state + " needs its approval {id, approved, reason}");
            }
            return null;
        }
        if (!node.isObject()) {
            throw new BadChatRequest(path, "approval must be an object {id, approved, reason}");
        }
        String id = optionalText(node, path, "id");
        if (id == null || id.isEmpty()) {
            throw new BadChatRequest(path + ".id", "an approval needs its id");
        }
        JsonNode approved = node.get("approved");
        if (approved != null && !approved.isNull() && !approved.isBoolean()) {
            throw new BadChatRequest(path + ".approved", "approved must be true or false");
        }
        if (state.equals("approval-responded") && (approved == null || approved.isNull())) {
            throw new BadChatRequest(path + ".approved", "an answered approval needs approved: true or false");
        }
        return new UiPart.Approval(id, approved == null || approved.isNull() ? null : approved.booleanValue(),
                optionalText(node, path, "reason"), optionalText(node, path, "signature"));
    }

    private PageContext context(JsonNode node) throws BadChatRequest {
        if (node == null || node.isNull()) {
            return PageContext.tables();
        }
        if (!node.isObject()) {
            throw new BadChatRequest("context", "context must be an object {page, configId, state}");
        }
        String page = optionalText(node, "context", "page");
        JsonNode state = node.get("state");
        if (state != null && !state.isNull() && !state.isObject()) {
            throw new BadChatRequest("context.state", "context.state must be an object (the builder's TableBuilderState)");
        }
        JsonNode config = node.get("config");
        if (config != null && !config.isNull() && !config.isObject()) {
            throw new BadChatRequest("context.config", "context.config must be an object (a Config)");
        }
        return new PageContext(page == null ? PageContext.TABLES : page, optionalText(node, "context", "configId"),
                state == null || state.isNull() ? null : state, config == null || config.isNull() ? null : config);
    }

    /** {@code clientTools}: names, or {name, description, parameters|inputSchema} objects. */
    private List<ClientTool> clientTools(JsonNode node) throws BadChatRequest {
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (!node.isArray() || node.size() > MAX_CLIENT_TOOLS) {
            throw new BadChatRequest("clientTools", "clientTools must be an array of at most " + MAX_CLIENT_TOOLS + " tools");
        }
        List<ClientTool> tools = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode t = node.get(i);
            String path = "clientTools[" + i + "]";
            String name = t.isTextual() ? t.asText() : t.isObject() ? optionalText(t, path, "name") : null;
            if (name == null || !TOOL_NAME.matcher(name).matches()) {
                throw new BadChatRequest(path, "a client tool needs a name of 1 to 64 letters, digits, _ or -");
            }
            String description = t.isObject() ? optionalText(t, path, "description") : null;
            JsonNode schema = t.isObject() ? (t.has("parameters") ? t.get("parameters") : t.get("inputSchema")) : null;
            if (schema != null && !schema.isObject()) {
                throw new BadChatRequest(path + ".parameters", "a client tool's parameters must be a JSON Schema object");
            }
            ObjectNode parameters = schema == null ? emptySchema() : (ObjectNode) schema;
            tools.add(new ClientTool(name, description == null ? "A tool the user's browser runs." : description, parameters));
        }
        return tools;
    }

    private static ObjectNode emptySchema() {
        ObjectNode schema = Json.object();
        schema.put("type", "object");
        schema.putObject("properties");
        return schema;
    }

    /** A string field of an object, or null when absent; another type refuses the request at {@code parent.name}. */
    private static String optionalText(JsonNode node, String parent, String name) throws BadChatRequest {
        try {
            return JsonFields.of((ObjectNode) node, parent, JsonFields.STOP_AT_FIRST, JsonFields.Wording.NAMED).text(name);
        } catch (JsonFields.Refused refused) {
            throw new BadChatRequest(refused.path(), refused.getMessage());
        }
    }
}
