package dev.tablewright.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.editable.EditableFieldUpdate;
import dev.tablewright.editable.EditableStatus;
import dev.tablewright.agent.toolcall.EditableFieldUpdateJson;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.catalogue.AgentToolDefinitions;

/** {@code update_editable_status}: changes one of the page's editable fields (name, description, page size). */
public final class EditableFieldTool implements InternalTool {

    @Override
    public ToolDefinition definition() {
        return AgentToolDefinitions.UPDATE_EDITABLE_STATUS;
    }

    @Override
    public JsonNode run(TurnState s, String toolCallId, ObjectNode arguments) {
        String field = arguments.path("fieldName").asText(null);
        JsonNode valueNode = arguments.get("value");
        String value = valueNode == null || valueNode.isNull() ? null : valueNode.asText();
        EditableStatus.Result result = s.editable.update(field, value);
        EditableFieldUpdate update = result.update();
        if (update.success()) {
            s.editable = result.status();
            boolean changed = s.working.applySetting(field, update.newValue());
            s.emit(new AgentEvent.EditableFieldChanged(field, update));
            if (changed) {
                s.emitWorkingConfig();
            }
        }
        return EditableFieldUpdateJson.write(update);
    }
}
