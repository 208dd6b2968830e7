package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.toolcontract.FieldType;
import dev.tablewright.toolcontract.InputField;
import dev.tablewright.toolcontract.UserInputRequirement;
import dev.tablewright.userinput.FormSchema;

/**
 * A tool's input form ({@link UserInputRequirement}) as the {@code requestedSchema} of a form-mode
 * {@code elicitation/create}: MCP allows a flat object of primitive properties ({@link FormSchema#flat}).
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
        ObjectNode schema = FormSchema.flat(requirement);
        if (McpToolCatalogue.ACCEPT_PREVIEW.equals(toolName) && schema.path("properties").path(ToolCall.CONFIRM).isObject()) {
            ((ObjectNode) schema.path("properties").path(ToolCall.CONFIRM)).put("default", true);
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
