package dev.tablewright.agui;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.Preview;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.UserInputRequirement;
import dev.tablewright.userinput.FormSchema;

import java.time.Instant;

/**
 * The two things a run waits on the user for, as AG-UI interrupts: keeping a preview ({@code tool_call} on the
 * {@code accept_preview} call, payload {@code {approved, reason}}) and a tool's form ({@code input_required}, the
 * form as JSON Schema: {@link FormSchema#of}).
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
                FormSchema.of(requirement), expiresAt, metadata);
    }
}
