package dev.tablewright.toolcontract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.codec.ConfigJson;
import dev.tablewright.config.TableConfig;
import dev.tablewright.json.Json;
import dev.tablewright.json.JsonFields;
import dev.tablewright.validation.ValidationCollector;
import dev.tablewright.validation.ValidationError;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;

/**
 * Reads a tool's arguments object with field-level errors: every wrong type, missing field, unknown choice or
 * oversized value becomes a {@link ValidationError} naming its field ({@code operation}, {@code columns[2].name},
 * {@code filter.value}), and reading goes on so the model sees all problems at once. A {@code config} argument may
 * be an object or a JSON string (models send both); read from an invocation, a {@code config} the arguments lack is
 * the door's working config ({@link ToolInvocation#config}). Nested objects are read with {@link #at}, sharing the errors.
 */
public final class ToolArguments {

    /** Longest text argument accepted (names are checked further by the domain; this bounds memory and messages). */
    public static final int MAX_TEXT_CHARS = 10_000;
    public static final int MAX_ARRAY_ITEMS = 1_000;

    private final JsonFields fields;
    private final ValidationCollector errors;
    /** The invocation whose top-level arguments these are (its working config stands in for {@code config}); else null. */
    private final ToolInvocation invocation;

    private ToolArguments(ObjectNode node, String path, ValidationCollector errors, ToolInvocation invocation) {
        this.fields = JsonFields.of(node, path, errors::error, JsonFields.Wording.NAMED);
        this.errors = errors;
        this.invocation = invocation;
    }

    /**
     * A reader over the invocation's arguments; a missing arguments object reads as empty (fields then report
     * missing). Its {@link #config} of {@code config} falls back on the invocation's working config.
     */
    public static ToolArguments of(ToolInvocation invocation) {
        ObjectNode arguments = invocation == null || invocation.arguments() == null ? Json.object() : invocation.arguments();
        return new ToolArguments(arguments, "", new ValidationCollector(), invocation);
    }

    public static ToolArguments of(ObjectNode arguments) {
        return new ToolArguments(arguments == null ? Json.object() : arguments, "", new ValidationCollector(), null);
    }

    /** A reader over a nested object, reporting errors under {@code path} (e.g. {@code filter}, {@code columns[0]}). */
    public ToolArguments at(ObjectNode nested, String path) {
        return new ToolArguments(nested, path, errors, null);
    }

    public boolean ok() {
        return !errors.hasErrors();
    }

    public List<ValidationError> errors() {
        return errors.report().errors();
    }

    public void error(String field, String message) {
        fields.problem(field, message);
    }

    public boolean has(String field) {
        return fields.has(field);
    }

    public JsonNode raw(String field) {
        return fields.value(field);
    }

    /**
     * The config argument: an object or a JSON string holding one. Type errors inside it name the config's own fields.
     * Read from an invocation, {@code config} is {@link ToolInvocation#config}: the arguments' own, else the door's
     * working config.
     */
    public TableConfig config(String field) {
        JsonNode n = invocation != null && ToolDefinition.CONFIG_ARGUMENT.equals(field) ? invocation.config() : fields.value(field);
        if (n != null && n.isNull()) {
            n = null; // as fields.value reads it: a JSON null is no config
        }
        if (n == null) {
            error(field, field + " is missing: pass the current table config (an object, or its JSON text)");
            return null;
        }
        ConfigJson.Read read;
        if (n.isTextual()) {
            if (n.textValue().length() > Json.MAX_DOCUMENT_CHARS) {
                error(field, field + " is " + n.textValue().length() + " characters long; at most " + Json.MAX_DOCUMENT_CHARS);
                return null;
            }
            read = ConfigJson.read(n.textValue());
        } else if (n.isObject()) {
            read = ConfigJson.read(n);
        } else {
            error(field, field + " must be a table config object (or its JSON text), got " + Json.kind(n));
            return null;
        }
        if (!read.ok()) {
            read.errors().forEach(e -> errors.error(e.field(), e.message()));
            return null;
        }
        return read.config();
    }

    /** A string; null when absent (an error if {@code required}) or of the wrong type or too long (an error). */
    public String text(String field, boolean required) {
        return text(field, required, MAX_TEXT_CHARS);
    }

    public String text(String field, boolean required, int maxChars) {
        if (!fields.has(field)) {
            if (required) {
                error(field, field + " is missing");
            }
            return null;
        }
        return fields.text(field, maxChars);
    }

    /** A boolean; the text "true" or "false" reads as one (models write both). */
    public Boolean bool(String field) {
        JsonNode n = fields.value(field);
        if (n != null && n.isTextual() && (n.textValue().equals("true") || n.textValue().equals("false"))) {
            return Boolean.valueOf(n.textValue());
        }
        return fields.bool(field);
    }

    /** One of an enum's constants, by lower-case wire name (case-insensitive); null after an error. */
    public <E extends Enum<E>> E choice(String field, Class<E> type, boolean required) {
        String s = text(field, required, 100);
        if (s == null) {
            return null;
        }
        String wanted = s.trim().toUpperCase(Locale.ROOT);
        List<String> names = new ArrayList<>();
        for (E e : type.getEnumConstants()) {
            if (e.name().equals(wanted)) {
                return e;
            }
            names.add(e.name().toLowerCase(Locale.ROOT));
        }
        error(field, field + " " + quote(s) + " is not one of " + String.join(", ", names));
        return null;
    }

    /** An object; a string holding a JSON object reads as that object (models write both). */
    public ObjectNode object(String field, boolean required) {
        JsonNode n = fields.value(field);
        if (n == null) {
            if (required) {
                error(field, field + " is missing");
            }
            return null;
        }
        if (!n.isTextual()) {
            return fields.object(field);
        }
        JsonNode embedded = parseEmbedded(field, n.textValue());
        if (embedded != null && !embedded.isObject()) {
            error(field, field + " must be an object, got " + Json.kind(embedded));
            return null;
        }
        return (ObjectNode) embedded;
    }

    /**
     * A list read item by item: {@code item} gets the element and its path ({@code columns[3]}) and returns the
     * value or null after reporting. A single object or string where a list is expected is read as a list of one
     * (models write {@code "columns": "notes"}); a string holding a JSON array is read as that array.
     */
    public <T> List<T> list(String field, boolean required, int maxItems, BiFunction<JsonNode, String, T> item) {
        JsonNode n = fields.value(field);
        if (n == null) {
            if (required) {
                error(field, field + " is missing");
            }
            return null;
        }
        if (n.isTextual() && n.textValue().trim().startsWith("[")) {
            n = parseEmbedded(field, n.textValue());
            if (n == null) {
                return null;
            }
        }
        ArrayNode array;
        if (n.isArray()) {
            array = (ArrayNode) n;
        } else if (n.isObject() || n.isTextual()) {
            array = Json.MAPPER.createArrayNode().add(n);
        } else {
            fields.array(field); // reports the wrong type
            return null;
        }
        if (array.size() > maxItems) {
            error(field, field + " has " + array.size() + " items; at most " + maxItems + " are accepted");
            return null;
        }
        List<T> out = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            out.add(item.apply(array.get(i), fields.path(field) + "[" + i + "]"));
        }
        return out;
    }

    /** A reader for a list element that must be an object; null after an error. */
    public ToolArguments element(JsonNode item, String path) {
        JsonFields element = fields.element(item, path);
        return element == null ? null : new ToolArguments(element.node(), path, errors, null);
    }

    /** Reports an error at an absolute path (for list elements). */
    public void errorAt(String path, String message) {
        errors.error(path, message);
    }

    private JsonNode parseEmbedded(String field, String text) {
        if (text.length() > Json.MAX_DOCUMENT_CHARS) {
            error(field, field + " is too long");
            return null;
        }
        try {
            return Json.parse(text);
        } catch (Exception e) {
            error(field, field + " is a string that is not valid JSON");
            return null;
        }
    }

    private static String quote(String s) {
        return s.length() <= 60 ? "'" + s + "'" : "'" + s.substring(0, 60) + "…'";
    }
}
