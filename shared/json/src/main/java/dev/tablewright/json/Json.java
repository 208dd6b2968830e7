package dev.tablewright.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The one configured {@link ObjectMapper} of the bundle. Built once at class init (cold start pays it once,
 * warm invocations never). Absent fields stay absent on output; unknown fields are tolerated on input (the
 * config model keeps them itself, see {@code Extras}).
 */
public final class Json {

    /** Documents larger than this are refused before they are parsed (bounded memory for bad input). */
    public static final int MAX_DOCUMENT_CHARS = 6 * 1024 * 1024;

    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .build();

    static {
        MAPPER.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxStringLength(MAX_DOCUMENT_CHARS)
                .maxNestingDepth(200)
                .maxNumberLength(100)
                .build());
    }

    private Json() {
    }

    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    /**
     * A JSON object written in the source (a tool's argument schema): a typo in it is a programming error,
     * found at class init, never a user's bad input.
     */
    public static ObjectNode objectLiteral(String json) {
        try {
            return (ObjectNode) MAPPER.readTree(json);
        } catch (JsonProcessingException | ClassCastException e) {
            throw new IllegalStateException("bad built-in JSON object", e);
        }
    }

    public static JsonNode parse(String text) throws JsonProcessingException {
        return MAPPER.readTree(text);
    }

    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("value is not serialisable: " + e.getOriginalMessage(), e);
        }
    }

    public static JsonNode tree(Object value) {
        return MAPPER.valueToTree(value);
    }

    public static <T> T convert(JsonNode node, Class<T> type) {
        return MAPPER.convertValue(node, type);
    }

    /** Puts {@code value} under {@code key} unless it is null: an answer leaves out what it does not have. */
    public static void putIfPresent(ObjectNode o, String key, String value) {
        if (value != null) {
            o.put(key, value);
        }
    }

    /** Puts {@code value} under {@code key} unless it is null or empty. */
    public static void putIfNotEmpty(ObjectNode o, String key, String value) {
        if (value != null && !value.isEmpty()) {
            o.put(key, value);
        }
    }

    /** What a JSON value is, in the words error messages use ("a string", "an array", …). */
    public static String kind(JsonNode n) {
        if (n.isTextual()) {
            return "a string";
        }
        if (n.isNumber()) {
            return "a number";
        }
        if (n.isBoolean()) {
            return "a boolean";
        }
        if (n.isArray()) {
            return "an array";
        }
        if (n.isObject()) {
            return "an object";
        }
        return "null";
    }
}
