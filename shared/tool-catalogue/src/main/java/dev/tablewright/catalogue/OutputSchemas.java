package dev.tablewright.catalogue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;

/** The shapes the tools with a fixed answer follow ({@code OperationResult}, the preview's answer, a save's). */
final class OutputSchemas {

    static final ObjectNode OPERATION_RESULT = operationResult();
    static final ObjectNode PREVIEW_RESULT = previewResult();
    static final ObjectNode ACCEPT_RESULT = acceptResult();

    private OutputSchemas() {
    }

    private static ObjectNode operationResult() {
        ObjectNode schema = Json.object().put("type", "object");
        ObjectNode p = schema.putObject("properties");
        p.putObject("valid").put("type", "boolean").put("description", "false: errors say what to fix");
        p.putObject("config").put("description", "the changed config (null when not valid)").putArray("type").add("object").add("null");
        p.set("errors", problems("what makes the change invalid, each on its field (e.g. columns[0].name)"));
        p.set("warnings", problems("what is allowed but worth knowing"));
        p.putObject("applied").put("type", "array").put("description", "what was changed, in words").putObject("items").put("type", "string");
        schema.putArray("required").add("valid").add("config").add("errors").add("warnings").add("applied");
        return schema;
    }

    private static ObjectNode previewResult() {
        ObjectNode schema = Json.object().put("type", "object");
        ObjectNode p = schema.putObject("properties");
        p.putObject("valid").put("type", "boolean");
        p.putObject("previewId").put("type", "string").put("description", "pass it to accept_preview or reject_preview");
        p.putObject("configId").putArray("type").add("string").add("null");
        p.putObject("isUpdate").put("type", "boolean");
        p.putObject("baseVersion").put("type", "integer");
        p.putObject("description").put("type", "string");
        p.putObject("database").put("type", "string");
        p.putObject("config").put("type", "object");
        p.putObject("diff").put("type", "object");
        p.putObject("plan").put("type", "object");
        p.putObject("columns").put("type", "array");
        p.putObject("rows").put("type", "array");
        p.putObject("more").put("type", "boolean");
        p.set("warnings", problems("what is allowed but worth knowing"));
        p.set("errors", problems("why the config cannot be previewed"));
        p.putObject("expiresAt").put("type", "string");
        schema.putArray("required").add("valid");
        return schema;
    }

    private static ObjectNode acceptResult() {
        ObjectNode schema = Json.object().put("type", "object");
        ObjectNode p = schema.putObject("properties");
        p.putObject("accepted").put("type", "boolean");
        p.putObject("previewId").put("type", "string");
        p.putObject("configId").put("type", "string");
        p.putObject("version").put("type", "integer");
        p.putObject("created").put("type", "boolean");
        p.putObject("name").put("type", "string");
        schema.putArray("required").add("accepted").add("previewId");
        return schema;
    }

    private static ObjectNode problems(String description) {
        ObjectNode list = Json.object().put("type", "array").put("description", description);
        ObjectNode item = list.putObject("items").put("type", "object");
        item.putObject("properties").<ObjectNode>set("field", Json.object().put("type", "string"))
                .set("message", Json.object().put("type", "string"));
        ((ArrayNode) item.putArray("required")).add("field").add("message");
        return list;
    }
}
