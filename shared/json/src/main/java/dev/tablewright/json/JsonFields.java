package dev.tablewright.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads the fields of one JSON object strictly: the one reader under a table config, a tool's arguments, a tool
 * invocation's envelope and a chat request. A field is absent (or null) or of its type; a value of another type is a
 * problem on the field's path ({@code data_source[0].schema}, {@code columns[2].name}) and reading goes on, so a
 * caller names every problem at once, or stops at the first by throwing from its {@link Problems}.
 *
 * <p>A wrong type is worded one of two ways, both on the wire: {@link Wording#PLAIN} for a document whose errors carry
 * the path ("expected a string, got a number", a table config), {@link Wording#NAMED} for named arguments and request
 * fields ("name must be a string, got a number").
 */
public final class JsonFields {

    /** Where problems go: collected (a config, a tool's arguments) or thrown at the first (an envelope, a chat request). */
    @FunctionalInterface
    public interface Problems {
        void report(String path, String message);
    }

    /** Stops reading at the first problem by throwing it as a {@link Refused}, for callers that answer one problem. */
    public static final Problems STOP_AT_FIRST = (path, message) -> {
        throw new Refused(path, message);
    };

    /** The first problem, thrown by {@link #STOP_AT_FIRST}; the caller turns it into its own refusal. */
    public static final class Refused extends RuntimeException {
        private final String path;

        Refused(String path, String message) {
            super(message, null, false, false);
            this.path = path;
        }

        public String path() {
            return path;
        }
    }

    public enum Wording {
        /** "expected a string, got a number" */
        PLAIN,
        /** "name must be a string, got a number" */
        NAMED
    }

    private final ObjectNode node;
    private final String path;
    private final Problems problems;
    private final Wording wording;

    private JsonFields(ObjectNode node, String path, Problems problems, Wording wording) {
        this.node = node;
        this.path = path;
        this.problems = problems;
        this.wording = wording;
    }

    /** A reader over {@code node}, whose fields are reported under {@code path} ("" at the top). */
    public static JsonFields of(ObjectNode node, String path, Problems problems, Wording wording) {
        return new JsonFields(node, path, problems, wording);
    }

    public ObjectNode node() {
        return node;
    }

    /** The path of one of this object's fields. */
    public String path(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    /** The field's value; null when it is absent or JSON null. */
    public JsonNode value(String key) {
        JsonNode n = node.get(key);
        return n == null || n.isNull() ? null : n;
    }

    public boolean has(String key) {
        return value(key) != null;
    }

    public String text(String key) {
        JsonNode n = value(key);
        if (n == null) {
            return null;
        }
        if (!n.isTextual()) {
            return mismatch(key, "a string", Json.kind(n));
        }
        return n.textValue();
    }

    /** A string of at most {@code maxChars}; a longer one is a problem (bounding memory and messages). */
    public String text(String key, int maxChars) {
        String s = text(key);
        if (s != null && s.length() > maxChars) {
            problems.report(path(key), key + " is " + s.length() + " characters long; at most " + maxChars + " are accepted");
            return null;
        }
        return s;
    }

    /**
     * A string turned into a value by {@code parse} (an enum's wire name, say); the message of the
     * IllegalArgumentException it throws for a string it does not know is the problem.
     */
    public <T> T parsed(String key, Function<String, T> parse) {
        String text = text(key);
        if (text == null) {
            return null;
        }
        try {
            return parse.apply(text);
        } catch (IllegalArgumentException e) {
            problems.report(path(key), e.getMessage());
            return null;
        }
    }

    /** A whole number that fits a long. */
    public Long integer(String key) {
        JsonNode n = value(key);
        if (n == null) {
            return null;
        }
        if (!n.isIntegralNumber() || !n.canConvertToLong()) {
            return mismatch(key, "an integer", n.isNumber() ? "a non-integral or too large number" : Json.kind(n));
        }
        return n.longValue();
    }

    /** A whole number that fits an int; a larger one is a problem. */
    public Integer int32(String key) {
        Long n = integer(key);
        if (n != null && (n < Integer.MIN_VALUE || n > Integer.MAX_VALUE)) {
            problems.report(path(key), "integer " + n + " is out of range");
            return null;
        }
        return n == null ? null : n.intValue();
    }

    /** Any number, exactly (a whole number is a number too). */
    public java.math.BigDecimal decimal(String key) {
        JsonNode n = value(key);
        if (n == null) {
            return null;
        }
        if (!n.isNumber()) {
            return mismatch(key, "a number", Json.kind(n));
        }
        return n.decimalValue();
    }

    /** A list of strings; an item of another type is a problem on its own path. */
    public List<String> texts(String key) {
        ArrayNode array = array(key);
        if (array == null) {
            return null;
        }
        List<String> out = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            JsonNode item = array.get(i);
            if (item.isTextual()) {
                out.add(item.textValue());
            } else {
                mismatchAt(path(key) + "[" + i + "]", key + "[" + i + "]", "a string", Json.kind(item));
            }
        }
        return out;
    }

    public Boolean bool(String key) {
        JsonNode n = value(key);
        if (n == null) {
            return null;
        }
        if (!n.isBoolean()) {
            return mismatch(key, "true or false", Json.kind(n));
        }
        return n.booleanValue();
    }

    public ObjectNode object(String key) {
        JsonNode n = value(key);
        if (n == null) {
            return null;
        }
        if (!n.isObject()) {
            return mismatch(key, "an object", Json.kind(n));
        }
        return (ObjectNode) n;
    }

    public ArrayNode array(String key) {
        JsonNode n = value(key);
        if (n == null) {
            return null;
        }
        if (!n.isArray()) {
            return mismatch(key, "an array", Json.kind(n));
        }
        return (ArrayNode) n;
    }

    /** A reader over the object in {@code key}; null when it is absent or not an object (a problem). */
    public JsonFields at(String key) {
        ObjectNode o = object(key);
        return o == null ? null : new JsonFields(o, path(key), problems, wording);
    }

    /** A reader over a list element or map value at {@code elementPath}; null (a problem) when it is not an object. */
    public JsonFields element(JsonNode item, String elementPath) {
        if (item == null || !item.isObject()) {
            problems.report(elementPath, "expected an object, got " + (item == null ? "nothing" : Json.kind(item)));
            return null;
        }
        return new JsonFields((ObjectNode) item, elementPath, problems, wording);
    }

    /** The array in {@code key}, each object read by {@code item}; an element that is not an object is a problem, skipped. */
    public <T> List<T> objects(String key, Function<JsonFields, T> item) {
        ArrayNode array = array(key);
        if (array == null) {
            return null;
        }
        List<T> out = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            String p = path(key) + "[" + i + "]";
            JsonFields element = element(array.get(i), p);
            if (element != null) {
                out.add(item.apply(element));
            }
        }
        return out;
    }

    /** The fields not in {@code known}, in order; null when there are none. */
    public Map<String, JsonNode> unknown(Set<String> known) {
        Map<String, JsonNode> extra = null;
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!known.contains(e.getKey())) {
                if (extra == null) {
                    extra = new LinkedHashMap<>();
                }
                extra.put(e.getKey(), e.getValue());
            }
        }
        return extra;
    }

    /** Every field not in {@code known} is a problem ("unknown field 'x'"): for request bodies, which keep nothing unknown. */
    public void refuseUnknown(Set<String> known) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!known.contains(key)) {
                String shown = key.length() > 64 ? key.substring(0, 64) + "…" : key;
                problems.report(path(shown), "unknown field '" + shown + "'");
            }
        }
    }

    /** Reports a problem on one of this object's fields. */
    public void problem(String key, String message) {
        problems.report(path(key), message);
    }

    private <T> T mismatch(String key, String expected, String got) {
        return mismatchAt(path(key), key, expected, got);
    }

    private <T> T mismatchAt(String problemPath, String name, String expected, String got) {
        problems.report(problemPath, wording == Wording.PLAIN ? "expected " + expected + ", got " + got
                : name + " must be " + expected + ", got " + got);
        return null;
    }
}
