package dev.tablewright.userinput;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.InputField;
import dev.tablewright.toolcontract.UserInputRequirement;

import java.util.List;

/**
 * A tool's form ({@link UserInputRequirement}) as JSON Schema, the one way every door shows it: each field a property
 * of its type (ranges, options as {@code enum}, {@code format: date}), its label as {@code title}. Two readings of the
 * same form: {@link #of} has every keyword the form knows (AG-UI's interrupt), {@link #flat} only what an MCP
 * elicitation's flat object of primitives allows.
 */
public final class FormSchema {

    private FormSchema() {
    }

    /**
     * The whole form: also patterns, placeholders as {@code examples}, a secret {@code writeOnly} (never shown back);
     * a field shown only when another has a value is required only then, so it is left out of {@code required} and
     * its condition is kept as {@code x-showWhen}.
     */
    public static ObjectNode of(UserInputRequirement form) {
        return schema(form, true);
    }

    /** The form as MCP's {@code requestedSchema}: type, range, options, format, title and description only. */
    public static ObjectNode flat(UserInputRequirement form) {
        return schema(form, false);
    }

    private static ObjectNode schema(UserInputRequirement form, boolean whole) {
        ObjectNode schema = Json.object().put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        ArrayNode required = Json.MAPPER.createArrayNode();
        for (InputField f : form.fields()) {
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
                    (f.options() == null ? List.<String>of() : f.options()).forEach(options::add);
                }
                case DATE -> p.put("type", "string").put("format", "date");
                case SECRET -> {
                    p.put("type", "string");
                    if (whole) {
                        p.put("writeOnly", true);
                    }
                }
                case TEXT -> p.put("type", "string");
            }
            if (whole) {
                Json.putIfPresent(p, "pattern", f.validation());
            }
            Json.putIfPresent(p, "title", f.label());
            Json.putIfPresent(p, "description", f.description());
            if (whole && f.placeholder() != null) {
                p.putArray("examples").add(f.placeholder());
            }
            if (whole && f.showWhen() != null) {
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
