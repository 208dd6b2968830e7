package dev.tablewright.fakes.model;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What Bedrock's Converse API refuses with a {@code ValidationException}, checked on a request body the way the
 * service does, so a stand-in can refuse it too: the fields it knows only; {@code system} as text blocks; messages
 * that start with the user and alternate roles, each with content; no blank text; every {@code toolUse} answered by a
 * {@code toolResult} in the very next message and no result without its use; tool blocks only with a
 * {@code toolConfig}; every tool as a {@code toolSpec} with a name, a description and
 * {@code inputSchema.json}; {@code inferenceConfig.maxTokens} a positive integer.
 */
public final class ConverseRequestRules {

    private static final Set<String> FIELDS = Set.of("messages", "system", "inferenceConfig", "toolConfig", "guardrailConfig",
            "additionalModelRequestFields", "promptVariables", "additionalModelResponseFieldPaths", "requestMetadata",
            "performanceConfig");
    private static final Pattern NAME = Pattern.compile("[a-zA-Z0-9_-]{1,64}");

    private ConverseRequestRules() {
    }

    /** Every rule the body breaks, in words naming the place; empty when Bedrock would take it. */
    public static List<String> violations(JsonNode body) {
        List<String> out = new ArrayList<>();
        if (!body.isObject()) {
            out.add("the body is not a JSON object");
            return out;
        }
        body.fieldNames().forEachRemaining(f -> {
            if (!FIELDS.contains(f)) {
                out.add("unknown field '" + f + "'");
            }
        });
        JsonNode system = body.path("system");
        if (!system.isMissingNode()) {
            if (!system.isArray()) {
                out.add("system is not an array");
            } else {
                for (int i = 0; i < system.size(); i++) {
                    if (system.get(i).path("text").asText("").isBlank()) {
                        out.add("system[" + i + "].text is blank or missing");
                    }
                }
            }
        }
        JsonNode maxTokens = body.path("inferenceConfig").path("maxTokens");
        if (!maxTokens.isIntegralNumber() || maxTokens.asLong() < 1) {
            out.add("inferenceConfig.maxTokens is not a positive integer");
        }
        boolean toolsConfigured = tools(body.path("toolConfig"), out);
        JsonNode messages = body.path("messages");
        if (!messages.isArray() || messages.isEmpty()) {
            out.add("messages is missing or empty");
            return out;
        }
        Set<String> previousUses = Set.of();
        String previousRole = null;
        for (int i = 0; i < messages.size(); i++) {
            JsonNode message = messages.get(i);
            String where = "messages[" + i + "]";
            String role = message.path("role").asText();
            if (!role.equals("user") && !role.equals("assistant")) {
                out.add(where + ".role is '" + role + "', not user or assistant");
            }
            if (i == 0 && !role.equals("user")) {
                out.add("messages[0] is not the user's: a conversation must start with a user message");
            }
            if (role.equals(previousRole)) {
                out.add(where + " has the same role as the message before it (" + role + "): roles must alternate");
            }
            JsonNode content = message.path("content");
            if (!content.isArray() || content.isEmpty()) {
                out.add(where + ".content is missing or empty");
                content = com.fasterxml.jackson.databind.node.MissingNode.getInstance();
            }
            Set<String> uses = new LinkedHashSet<>();
            Set<String> results = new LinkedHashSet<>();
            for (int b = 0; b < content.size(); b++) {
                block(content.get(b), where + ".content[" + b + "]", role, uses, results, toolsConfigured, out);
            }
            for (String id : results) {
                if (!previousUses.contains(id)) {
                    out.add(where + " has a toolResult for '" + id + "', which the message before it did not use");
                }
            }
            for (String id : previousUses) {
                if (!results.contains(id)) {
                    out.add(where + " does not answer toolUse '" + id + "' of the message before it");
                }
            }
            previousUses = uses;
            previousRole = role;
        }
        if (!previousUses.isEmpty()) {
            out.add("the last message uses tools " + previousUses + " that no message answers");
        }
        return out;
    }

    private static boolean tools(JsonNode toolConfig, List<String> out) {
        if (toolConfig.isMissingNode()) {
            return false;
        }
        JsonNode tools = toolConfig.path("tools");
        if (!tools.isArray() || tools.isEmpty()) {
            out.add("toolConfig.tools is missing or empty");
            return false;
        }
        Set<String> names = new LinkedHashSet<>();
        for (int i = 0; i < tools.size(); i++) {
            JsonNode spec = tools.get(i).path("toolSpec");
            String where = "toolConfig.tools[" + i + "].toolSpec";
            if (!spec.isObject()) {
                out.add(where + " is missing");
                continue;
            }
            String name = spec.path("name").asText("");
            if (!NAME.matcher(name).matches()) {
                out.add(where + ".name '" + name + "' is not [a-zA-Z0-9_-]{1,64}");
            } else if (!names.add(name)) {
                out.add(where + ".name '" + name + "' is offered twice");
            }
            if (spec.path("description").asText("").isEmpty()) {
                out.add(where + ".description is missing or empty");
            }
            if (!spec.path("inputSchema").path("json").isObject()) {
                out.add(where + ".inputSchema.json is not a JSON Schema object");
            }
        }
        return true;
    }

    private static void block(JsonNode block, String where, String role, Set<String> uses, Set<String> results,
                              boolean toolsConfigured, List<String> out) {
        if (!block.isObject() || block.size() != 1) {
            out.add(where + " is not a block with exactly one kind (text, toolUse, toolResult, ...)");
            return;
        }
        if (block.has("text")) {
            if (block.path("text").asText("").isBlank()) {
                out.add(where + ".text is blank");
            }
        } else if (block.has("toolUse")) {
            JsonNode use = block.get("toolUse");
            if (!role.equals("assistant")) {
                out.add(where + " is a toolUse in a " + role + " message");
            }
            if (!toolsConfigured) {
                out.add(where + " is a toolUse but the request has no toolConfig");
            }
            String id = use.path("toolUseId").asText("");
            if (!NAME.matcher(id).matches()) {
                out.add(where + ".toolUse.toolUseId '" + id + "' is not [a-zA-Z0-9_-]{1,64}");
            }
            if (!NAME.matcher(use.path("name").asText("")).matches()) {
                out.add(where + ".toolUse.name is missing or malformed");
            }
            if (!use.path("input").isObject()) {
                out.add(where + ".toolUse.input is not an object");
            }
            if (!uses.add(id)) {
                out.add(where + ".toolUse.toolUseId '" + id + "' is used twice in one message");
            }
        } else if (block.has("toolResult")) {
            JsonNode result = block.get("toolResult");
            if (!role.equals("user")) {
                out.add(where + " is a toolResult in a " + role + " message");
            }
            if (!toolsConfigured) {
                out.add(where + " is a toolResult but the request has no toolConfig");
            }
            String id = result.path("toolUseId").asText("");
            if (!results.add(id)) {
                out.add(where + " answers toolUse '" + id + "' a second time");
            }
            JsonNode status = result.path("status");
            if (!status.isMissingNode() && !status.asText().equals("success") && !status.asText().equals("error")) {
                out.add(where + ".toolResult.status is '" + status.asText() + "', not success or error");
            }
            JsonNode content = result.path("content");
            if (!content.isArray() || content.isEmpty()) {
                out.add(where + ".toolResult.content is missing or empty");
            } else {
                for (int c = 0; c < content.size(); c++) {
                    JsonNode part = content.get(c);
                    boolean json = part.path("json").isObject();
                    boolean text = !part.path("text").asText("").isBlank();
                    if (part.size() != 1 || !(json || text)) {
                        out.add(where + ".toolResult.content[" + c + "] is neither a json object nor non-blank text");
                    }
                }
            }
        } else {
            out.add(where + " is a '" + block.fieldNames().next() + "' block, which this chat never sends");
        }
    }
}
