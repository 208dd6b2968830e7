package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.FieldType;
import dev.tablewright.toolcontract.InputField;
import dev.tablewright.toolcontract.UserInputRequirement;

/**
 * A tool's input form ({@link UserInputRequirement}) as the {@code requestedSchema} of a form-mode
 * {@code elicitation/create}: MCP allows a flat object of primitive properties, which is what the fields are.
 * Secret fields never go through form mode (the spec forbids it): {@link #hasSecret} sends them to URL mode.
 */
final class ElicitationForms {

    private ElicitationForms() {
    }

    static boolean hasSecret(UserInputRequirement requirement) {
        return requirement.fields().stream().anyMatch(f -> f.type() == FieldType.SECRET);
    }

    /** The form of a tool's question; {@code accept_preview}'s confirmation box comes checked. */
    static ObjectNode requestedSchema(String toolName, UserInputRequirement requirement) {
        ObjectNode schema = requestedSchema(requirement);
        if (McpToolCatalogue.ACCEPT_PREVIEW.equals(toolName) && schema.path("properties").path(ToolCall.CONFIRM).isObject()) {
            ((ObjectNode) schema.path("properties").path(ToolCall.CONFIRM)).put("default", true);
        }
        return schema;
    }

    static ObjectNode requestedSchema(UserInputRequirement requirement) {
        ObjectNode schema = Json.object().put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        ArrayNode required = Json.MAPPER.createArrayNode();
        for (InputField f : requirement.fields()) {
            ObjectNode p = properties.putObject(f.name());
            switch (f.type()) {
                case NUMBER -> {
                    p.put("type", "number");
                    if (f.min() != null) {
                        p.put("minimum", f.min());
                    }
                    if (f.max() != null) {
                        p.put("maximum", f.max());
                    }
                }
                case BOOLEAN -> p.put("type", "boolean");
                case SELECT -> {
                    p.put("type", "string");
                    ArrayNode options = p.putArray("enum");
                    (f.options() == null ? java.util.List.<String>of() : f.options()).forEach(options::add);
                }
                case DATE -> p.put("type", "string").put("format", "date");
                default -> p.put("type", "string");
            }
            if (f.label() != null) {
                p.put("title", f.label());
            }
            if (f.description() != null) {
                p.put("description", f.description());
            }
            if (f.isRequired()) {
                required.add(f.name());
            }
        }
        if (!required.isEmpty()) {
            schema.set("required", required);
        }
        return schema;
    }

    /** What a client that cannot answer questions is told instead: which values to pass as arguments. */
    static String whatIsNeeded(String toolName, UserInputRequirement requirement) {
        StringBuilder out = new StringBuilder(toolName).append(" needs input from the user: ").append(requirement.reason());
        for (InputField f : requirement.fields()) {
            out.append("\n- ").append(f.name());
            if (f.options() != null && !f.options().isEmpty()) {
                out.append(" (one of ").append(String.join(", ", f.options())).append(')');
            }
            if (f.description() != null) {
                out.append(": ").append(f.description());
            }
        }
        out.append("\nThis client did not declare the elicitation capability, so it cannot be asked here: ")
                .append("ask the user and call the tool again with the value as an argument.");
        return out.toString();
    }
}
