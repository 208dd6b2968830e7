package dev.tablewright.agui;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.Preview;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.InputField;
import dev.tablewright.toolcontract.UserInputRequirement;

import java.time.Instant;

/**
 * The two things a run waits on the user for, as AG-UI interrupts: keeping a preview ({@code tool_call} on the
 * {@code accept_preview} call, payload {@code {approved, reason}}) and a tool's form ({@code input_required}, the
 * form as JSON Schema).
 */
public final class Interrupts {

    private Interrupts() {
    }

    /** The keep-or-discard decision on {@code preview}, asked by the call {@code toolCallId}. */
    public static AgUiEvent.Interrupt keepPreview(String interruptId, String toolCallId, Preview preview) {
        ObjectNode schema = Json.object().put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        properties.putObject("approved").put("type", "boolean").put("description", "true keeps (saves) the table, false discards it");
        properties.putObject("reason").put("type", "string").put("description", "why, when it is discarded");
        schema.putArray("required").add("approved");
        String name = preview.config() != null && preview.config().hasNonNull("name") ? preview.config().get("name").asText() : null;
        String message = (name == null ? "Keep this table" : "Keep the table \"" + name + "\"")
                + (preview.configId() == null ? " as a new config?" : " as the next version of " + preview.configId() + "?")
                + (preview.summary() == null ? "" : " " + preview.summary());
        ObjectNode metadata = Json.object().put("previewId", preview.previewId());
        return new AgUiEvent.Interrupt(interruptId, AgUiEvent.Interrupt.TOOL_CALL, message, toolCallId, schema,
                preview.expiresAt(), metadata);
    }

    /** A tool's question: request {@code requestId} asks for the form's values until {@code expiresAt}. */
    public static AgUiEvent.Interrupt inputRequired(String requestId, String toolCallId, String toolName,
                                                    UserInputRequirement requirement, Instant expiresAt) {
        ObjectNode metadata = Json.object().put("toolName", toolName).put("inputRequestId", requestId);
        return new AgUiEvent.Interrupt(requestId, AgUiEvent.Interrupt.INPUT_REQUIRED, requirement.reason(), toolCallId,
                formSchema(requirement), expiresAt, metadata);
    }

    /**
     * The form as JSON Schema: each field a property of its type (patterns, ranges, enums, {@code format: date}), a
     * secret {@code writeOnly} (never shown back); a field shown only when another has a value is required only then,
     * so it is left out of {@code required} and its condition is kept as {@code x-showWhen}.
     */
    public static ObjectNode formSchema(UserInputRequirement requirement) {
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
                    f.options().forEach(options::add);
                }
                case DATE -> p.put("type", "string").put("format", "date");
                case SECRET -> p.put("type", "string").put("writeOnly", true);
                case TEXT -> p.put("type", "string");
            }
            if (f.validation() != null) {
                p.put("pattern", f.validation());
            }
            Json.putIfPresent(p, "title", f.label());
            Json.putIfPresent(p, "description", f.description());
            if (f.placeholder() != null) {
                p.putArray("examples").add(f.placeholder());
            }
            if (f.showWhen() != null) {
                p.putObject("x-showWhen").put("field", f.showWhen().field()).put("equals", f.showWhen().equals());
            } else if (f.isRequired()) {
                required.add(f.name());
            }
        }
        if (!required.isEmpty()) {
            schema.set("required", required);
        }
        return schema;
    }
}
