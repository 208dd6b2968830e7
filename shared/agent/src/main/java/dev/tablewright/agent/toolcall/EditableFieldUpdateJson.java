package dev.tablewright.agent.toolcall;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.editable.EditableFieldUpdate;
import dev.tablewright.json.Json;

/** {@code update_editable_status}'s answer: every key, null where there is no value (a page reads all five). */
public final class EditableFieldUpdateJson {

    private EditableFieldUpdateJson() {
    }

    public static ObjectNode write(EditableFieldUpdate update) {
        ObjectNode o = Json.object().put("success", update.success());
        o.put("error", update.error());
        o.put("updatedField", update.updatedField());
        o.put("previousValue", update.previousValue());
        o.put("newValue", update.newValue());
        return o;
    }
}
