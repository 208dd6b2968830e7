package dev.tablewright.catalogue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolDefinition.Access;
import dev.tablewright.toolcontract.ToolDefinition.Audience;
import dev.tablewright.toolcontract.ToolDefinition.RunsOn;

import java.util.Set;

/**
 * The user's decision on a pending preview, as tools: only MCP offers them to a model, and they run in the MCP
 * function itself. {@code accept_preview} saves, so the user approves each call: on MCP by a confirmation, in the chat
 * through the AI SDK's tool approval, where the chat issues the call itself when a turn leaves a preview pending
 * (never its model; docs/stream-protocol.md#tool-approvals). {@code keep_preview} and {@code discard_preview} are the
 * buttons of the preview's MCP App view ({@link DatabaseToolDefinitions#PREVIEW_VIEW}): only the view calls them, and
 * a click on Keep is the user's approval.
 */
public final class PreviewDecisionDefinitions {

    public static final String ACCEPT_PREVIEW_NAME = "accept_preview";
    public static final String REJECT_PREVIEW_NAME = "reject_preview";
    public static final String KEEP_PREVIEW_NAME = "keep_preview";
    public static final String DISCARD_PREVIEW_NAME = "discard_preview";

    public static final ToolDefinition ACCEPT_PREVIEW = new ToolDefinition(ACCEPT_PREVIEW_NAME,
            "Saves a pending preview (made by preview_table_config) as a table config: a new config, or the next version "
                    + "of the config it changes. The user is asked to confirm first (name, new or which version, the "
                    + "changes); nothing is saved unless they accept. Declined: the preview stays pending.",
            previewId(), null, Set.of(), RunsOn.IN_PROCESS)
            .titled("Save a preview (asks the user)")
            .changing(Access.WRITES) // nothing is overwritten: a save makes a new version, the old ones stay
            .needingApproval().answering(OutputSchemas.ACCEPT_RESULT).on(Audience.MCP_HOST);

    public static final ToolDefinition REJECT_PREVIEW = new ToolDefinition(REJECT_PREVIEW_NAME,
            "Discards a pending preview (made by preview_table_config); the saved config is untouched.",
            previewId(), null, Set.of(), RunsOn.IN_PROCESS)
            .titled("Discard a preview").changing(Access.WRITES_IDEMPOTENTLY).on(Audience.MCP_HOST);

    public static final ToolDefinition KEEP_PREVIEW = new ToolDefinition(KEEP_PREVIEW_NAME,
            "Saves a pending preview when the user clicks Keep in the preview's view (only the view calls it): a new "
                    + "config, or the next version of the config it changes. The click is the user's approval; a preview "
                    + "already kept saves nothing more.",
            previewId(), null, Set.of(), RunsOn.IN_PROCESS)
            .titled("Keep a preview (the view's button)").changing(Access.WRITES)
            .answering(OutputSchemas.ACCEPT_RESULT).on(Audience.APP_VIEW);

    public static final ToolDefinition DISCARD_PREVIEW = new ToolDefinition(DISCARD_PREVIEW_NAME,
            "Discards a pending preview when the user clicks Discard in the preview's view (only the view calls it); "
                    + "the saved config is untouched.",
            previewId(), null, Set.of(), RunsOn.IN_PROCESS)
            .titled("Discard a preview (the view's button)").changing(Access.WRITES_IDEMPOTENTLY).on(Audience.APP_VIEW);

    private PreviewDecisionDefinitions() {
    }

    private static ObjectNode previewId() {
        ObjectNode parameters = Json.object().put("type", "object");
        parameters.putObject("properties").putObject("previewId").put("type", "string")
                .put("description", "The previewId preview_table_config answered (prv_...)");
        parameters.putArray("required").add("previewId");
        parameters.put("additionalProperties", false);
        return parameters;
    }
}
