package dev.tablewright.toolcontract;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;
import dev.tablewright.json.JsonFields;

import java.util.List;
import java.util.Set;

/**
 * The one reader and writer of a user-input form's fields ({@link InputField}), as a tool declares them, a tool's
 * {@code needs_input} answer carries them, the input-request API shows them and the store keeps them: absent values
 * are left out, {@code type} is its wire name, {@code showWhen} is {@code {field, equals}}.
 */
public final class InputFieldJson {

    /** The keys of a field: a request body refuses any other. */
    public static final Set<String> KEYS = Set.of("name", "label", "description", "type", "required", "validation", "min",
            "max", "placeholder", "options", "showWhen");
    private static final Set<String> SHOW_WHEN_KEYS = Set.of("field", "equals");

    private InputFieldJson() {
    }

    public static ArrayNode write(List<InputField> fields) {
        ArrayNode out = Json.MAPPER.createArrayNode();
        if (fields != null) {
            fields.forEach(f -> out.add(write(f)));
        }
        return out;
    }

    public static ObjectNode write(InputField f) {
        ObjectNode o = Json.object();
        Json.putIfPresent(o, "name", f.name());
        Json.putIfPresent(o, "label", f.label());
        Json.putIfPresent(o, "description", f.description());
        if (f.type() != null) {
            o.put("type", f.type().wireName());
        }
        if (f.required() != null) {
            o.put("required", f.required());
        }
        Json.putIfPresent(o, "validation", f.validation());
        if (f.min() != null) {
            o.put("min", f.min());
        }
        if (f.max() != null) {
            o.put("max", f.max());
        }
        Json.putIfPresent(o, "placeholder", f.placeholder());
        if (f.options() != null) {
            ArrayNode options = o.putArray("options");
            f.options().forEach(options::add);
        }
        if (f.showWhen() != null) {
            o.putObject("showWhen").put("field", f.showWhen().field()).put("equals", f.showWhen().equals());
        }
        return o;
    }

    /**
     * One field, every value of the wrong type a problem on its path; keys it does not know are left for the caller
     * (a request body refuses them with {@link #KEYS}, a stored item ignores them).
     */
    public static InputField read(JsonFields f, boolean refuseUnknown) {
        InputField field = new InputField(f.text("name"), f.text("label"), f.text("description"),
                f.parsed("type", FieldType::fromWire), f.bool("required"), f.text("validation"), f.decimal("min"),
                f.decimal("max"), f.text("placeholder"), f.texts("options"), showWhen(f.at("showWhen"), refuseUnknown));
        if (refuseUnknown) {
            f.refuseUnknown(KEYS);
        }
        return field;
    }

    private static ShowWhen showWhen(JsonFields when, boolean refuseUnknown) {
        if (when == null) {
            return null;
        }
        ShowWhen showWhen = new ShowWhen(when.text("field"), when.text("equals"));
        if (refuseUnknown) {
            when.refuseUnknown(SHOW_WHEN_KEYS);
        }
        return showWhen;
    }
}
