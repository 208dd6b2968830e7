package dev.tablewright.agui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;

import java.util.Iterator;
import java.util.Map;

/**
 * RFC 6902 JSON Patch between two documents: objects are compared member by member (add, remove, replace at the
 * member's pointer); anything else that differs, arrays included, is replaced whole. Applying the patch to
 * {@code from} gives exactly {@code to}; equal documents give an empty patch.
 */
public final class JsonPatch {

    private JsonPatch() {
    }

    public static ArrayNode diff(JsonNode from, JsonNode to) {
        ArrayNode ops = Json.MAPPER.createArrayNode();
        diff("", from, to, ops);
        return ops;
    }

    private static void diff(String path, JsonNode from, JsonNode to, ArrayNode ops) {
        if (from.equals(to)) {
            return;
        }
        if (from.isObject() && to.isObject()) {
            for (Iterator<String> names = from.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                if (!to.has(name)) {
                    ops.addObject().put("op", "remove").put("path", path + "/" + escape(name));
                }
            }
            for (Iterator<Map.Entry<String, JsonNode>> fields = to.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                String child = path + "/" + escape(field.getKey());
                if (!from.has(field.getKey())) {
                    ObjectNode add = ops.addObject().put("op", "add").put("path", child);
                    add.set("value", field.getValue());
                } else {
                    diff(child, from.get(field.getKey()), field.getValue(), ops);
                }
            }
            return;
        }
        ObjectNode replace = ops.addObject().put("op", "replace").put("path", path);
        replace.set("value", to);
    }

    /** A member name as a JSON Pointer token (RFC 6901): {@code ~} as {@code ~0}, {@code /} as {@code ~1}. */
    static String escape(String name) {
        return name.replace("~", "~0").replace("/", "~1");
    }
}
