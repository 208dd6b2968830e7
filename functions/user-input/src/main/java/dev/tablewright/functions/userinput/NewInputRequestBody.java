package dev.tablewright.functions.userinput;

import dev.tablewright.json.JsonFields;
import dev.tablewright.tool.FieldType;
import dev.tablewright.tool.InputField;
import dev.tablewright.tool.ShowWhen;
import dev.tablewright.tool.ValueScope;
import dev.tablewright.userinput.NewInputRequest;

import java.util.Set;
import java.util.function.Function;

/**
 * The body of "create an input request", read strictly into a {@link NewInputRequest}: every value of the wrong JSON
 * type and every unknown field, at every level, is named in one 400. What the values may be (names, patterns,
 * ranges) is {@code InputRequestService}'s to check after.
 */
final class NewInputRequestBody {

    private static final Set<String> REQUEST_KEYS = Set.of("toolName", "toolCallId", "reason", "fields", "saveForSession", "scope");
    private static final Set<String> FIELD_KEYS = Set.of("name", "label", "description", "type", "required", "validation", "min",
            "max", "placeholder", "options", "showWhen");
    private static final Set<String> SHOW_WHEN_KEYS = Set.of("field", "equals");

    private NewInputRequestBody() {
    }

    static NewInputRequest read(JsonFields body) {
        NewInputRequest request = new NewInputRequest(body.text("toolName"), body.text("toolCallId"), body.text("reason"),
                body.objects("fields", (field, path) -> field(field)), body.bool("saveForSession"),
                wire(body, "scope", ValueScope::fromWire));
        body.refuseUnknown(REQUEST_KEYS);
        return request;
    }

    private static InputField field(JsonFields f) {
        JsonFields showWhen = f.at("showWhen");
        InputField field = new InputField(f.text("name"), f.text("label"), f.text("description"),
                wire(f, "type", FieldType::fromWire), f.bool("required"), f.text("validation"), f.decimal("min"),
                f.decimal("max"), f.text("placeholder"), f.texts("options"),
                showWhen == null ? null : showWhen(showWhen));
        f.refuseUnknown(FIELD_KEYS);
        return field;
    }

    private static ShowWhen showWhen(JsonFields s) {
        ShowWhen showWhen = new ShowWhen(s.text("field"), s.text("equals"));
        s.refuseUnknown(SHOW_WHEN_KEYS);
        return showWhen;
    }

    /** An enum by its wire name; an unknown one is a problem worded by the enum ("unknown scope 'x' (expected …)"). */
    private static <E> E wire(JsonFields o, String key, Function<String, E> fromWire) {
        String text = o.text(key);
        if (text == null) {
            return null;
        }
        try {
            return fromWire.apply(text);
        } catch (IllegalArgumentException e) {
            o.problem(key, e.getMessage());
            return null;
        }
    }
}
