package dev.tablewright.bedrock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.model.ModelMessage;
import dev.tablewright.agent.model.ModelRequest;
import dev.tablewright.agent.model.ModelTool;
import dev.tablewright.agent.model.ToolCallRequest;
import dev.tablewright.json.Json;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The ConverseStream request body for one {@link ModelRequest}, shaped into what Bedrock accepts whatever the
 * history looks like (a stored conversation, a trimmed one, one that began on another provider):
 * <ul>
 *   <li>system messages become the {@code system} blocks;</li>
 *   <li>consecutive messages of one role are merged into one message (tool results are user content);</li>
 *   <li>every {@code toolUse} is answered by a {@code toolResult} in the very next (user) message: a call whose
 *       result is missing gets an error result, a result whose call is gone becomes text; results come first in
 *       their message;</li>
 *   <li>the first message is the user's: a history that starts with the assistant gets a short user note before it;</li>
 *   <li>blank text blocks are left out (Bedrock refuses them).</li>
 * </ul>
 * A tool's answer goes as {@code json} content when it is a JSON object, as text otherwise, with
 * {@code status: error} when it is an object with an {@code error} field (how the turn words a failed call).
 */
public final class ConverseRequest {

    /** The user's stand-in first message when the kept history begins with the assistant. */
    static final String EARLIER_MESSAGES_NOTE = "(Earlier messages of this conversation are not shown.)";
    static final String MISSING_RESULT = "{\"error\":\"no result was recorded for this tool call\"}";

    private ConverseRequest() {
    }

    public static ObjectNode body(ModelRequest request) {
        boolean toolsOffered = !request.tools().isEmpty();
        ObjectNode body = Json.object();
        ArrayNode system = Json.MAPPER.createArrayNode();
        List<Message> messages = new ArrayList<>();
        for (ModelMessage m : request.messages()) {
            switch (m) {
                case ModelMessage.System s -> {
                    if (!s.text().isBlank()) {
                        system.addObject().put("text", s.text());
                    }
                }
                case ModelMessage.User u -> append(messages, "user", text(u.text()));
                case ModelMessage.Assistant a -> append(messages, "assistant", assistant(a, toolsOffered));
                case ModelMessage.ToolResult r -> append(messages, "user", List.of(toolsOffered
                        ? toolResult(r.toolCallId(), r.content())
                        : textBlock("[tool result] " + r.content())));
            }
        }
        if (toolsOffered) {
            pairToolUses(messages);
        }
        if (messages.isEmpty() || !messages.get(0).role.equals("user")) {
            messages.add(0, new Message("user", new ArrayList<>(List.of(textBlock(EARLIER_MESSAGES_NOTE)))));
        }
        ArrayNode out = body.putArray("messages");
        for (Message message : messages) {
            ObjectNode node = out.addObject().put("role", message.role);
            message.blocks.forEach(node.putArray("content")::add);
        }
        if (!system.isEmpty()) {
            body.set("system", system);
        }
        body.putObject("inferenceConfig").put("maxTokens", request.maxOutputTokens());
        if (toolsOffered) {
            ArrayNode tools = body.putObject("toolConfig").putArray("tools");
            for (ModelTool tool : request.tools()) {
                ObjectNode spec = tools.addObject().putObject("toolSpec").put("name", tool.name())
                        .put("description", tool.description() == null || tool.description().isBlank() ? tool.name() : tool.description());
                spec.putObject("inputSchema").set("json", tool.parameters());
            }
        }
        return body;
    }

    private static List<ObjectNode> assistant(ModelMessage.Assistant a, boolean toolsOffered) {
        List<ObjectNode> blocks = new ArrayList<>(text(a.text()));
        for (ToolCallRequest call : a.toolCalls()) {
            if (toolsOffered) {
                ObjectNode use = Json.object();
                use.putObject("toolUse").put("toolUseId", toolUseId(call.id())).put("name", call.name()).set("input", input(call.arguments()));
                blocks.add(use);
            } else {
                // without toolConfig Bedrock refuses toolUse blocks: the call is kept as what it was
                blocks.add(textBlock("[called " + call.name() + " with " + call.arguments() + "]"));
            }
        }
        return blocks;
    }

    /** Arguments as an object: what the model wrote when it is one, else {} (the tool's answer said what was wrong). */
    private static ObjectNode input(String arguments) {
        try {
            JsonNode parsed = Json.parse(arguments == null || arguments.isBlank() ? "{}" : arguments);
            return parsed.isObject() ? (ObjectNode) parsed : Json.object();
        } catch (Exception e) {
            return Json.object();
        }
    }

    private static ObjectNode toolResult(String toolCallId, String content) {
        ObjectNode block = Json.object();
        ObjectNode result = block.putObject("toolResult").put("toolUseId", toolUseId(toolCallId));
        JsonNode parsed = null;
        try {
            parsed = Json.parse(content);
        } catch (Exception notJson) {
            // plain text answer
        }
        ArrayNode parts = result.putArray("content");
        if (parsed != null && parsed.isObject()) {
            parts.addObject().set("json", parsed);
            if (parsed.has("error")) {
                result.put("status", "error");
            }
        } else {
            parts.addObject().put("text", content == null || content.isBlank() ? "(empty)" : content);
        }
        return block;
    }

    /**
     * Every assistant message's tool uses answered in the next message, and only there. Runs over merged messages,
     * front to back: an assistant message fixes the user message after it before that one is looked at.
     */
    private static void pairToolUses(List<Message> messages) {
        for (int i = 0; i < messages.size(); i++) {
            Message message = messages.get(i);
            if (message.role.equals("assistant")) {
                uniqueToolUseIds(message);
                Set<String> uses = message.ids("toolUse");
                if (uses.isEmpty()) {
                    continue;
                }
                if (i + 1 == messages.size() || !messages.get(i + 1).role.equals("user")) {
                    messages.add(i + 1, new Message("user", new ArrayList<>()));
                }
                Message next = messages.get(i + 1);
                Set<String> answered = next.ids("toolResult");
                for (String id : uses) {
                    if (!answered.contains(id)) {
                        next.blocks.add(toolResult(id, MISSING_RESULT));
                    }
                }
            } else {
                Set<String> uses = i > 0 ? messages.get(i - 1).ids("toolUse") : Set.of();
                List<ObjectNode> results = new ArrayList<>();
                List<ObjectNode> rest = new ArrayList<>();
                Set<String> seen = new LinkedHashSet<>();
                for (ObjectNode block : message.blocks) {
                    if (block.has("toolResult")) {
                        String id = block.path("toolResult").path("toolUseId").asText();
                        if (uses.contains(id) && seen.add(id)) {
                            results.add(block);
                        } else {
                            rest.add(textBlock("[result of an earlier tool call] " + resultText(block)));
                        }
                    } else {
                        rest.add(block);
                    }
                }
                message.blocks.clear();
                message.blocks.addAll(results);
                message.blocks.addAll(rest);
            }
        }
    }

    /** Two calls with one id (merged steps, a client's ids) would be one call to Bedrock: the later ones get their own. */
    private static void uniqueToolUseIds(Message message) {
        Set<String> seen = new LinkedHashSet<>();
        for (ObjectNode block : message.blocks) {
            if (block.has("toolUse")) {
                ObjectNode use = (ObjectNode) block.get("toolUse");
                String id = use.path("toolUseId").asText();
                String unique = id;
                for (int n = 2; !seen.add(unique); n++) {
                    String suffix = "_" + n;
                    unique = (id.length() + suffix.length() <= 64 ? id : id.substring(0, 64 - suffix.length())) + suffix;
                }
                use.put("toolUseId", unique);
            }
        }
    }

    private static String resultText(ObjectNode block) {
        JsonNode content = block.path("toolResult").path("content").path(0);
        return content.has("json") ? Json.write(content.get("json")) : content.path("text").asText();
    }

    private static void append(List<Message> messages, String role, List<ObjectNode> blocks) {
        if (blocks.isEmpty()) {
            return;
        }
        if (!messages.isEmpty() && messages.getLast().role.equals(role)) {
            messages.getLast().blocks.addAll(blocks);
        } else {
            messages.add(new Message(role, new ArrayList<>(blocks)));
        }
    }

    private static List<ObjectNode> text(String text) {
        return text == null || text.isBlank() ? List.of() : List.of(textBlock(text));
    }

    private static ObjectNode textBlock(String text) {
        return Json.object().put("text", text);
    }

    /** Bedrock's toolUseId is [a-zA-Z0-9_-]{1,64}; ids from the UI history or another provider may not be. */
    static String toolUseId(String id) {
        if (id == null || id.isEmpty()) {
            return "call";
        }
        String cleaned = id.replaceAll("[^a-zA-Z0-9_-]", "_");
        return cleaned.length() <= 64 ? cleaned : cleaned.substring(0, 64);
    }

    private record Message(String role, List<ObjectNode> blocks) {
        Set<String> ids(String kind) {
            Set<String> ids = new LinkedHashSet<>();
            for (ObjectNode block : blocks) {
                if (block.has(kind)) {
                    ids.add(block.path(kind).path("toolUseId").asText());
                }
            }
            return ids;
        }
    }
}
