package dev.tablewright.lambda;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import dev.tablewright.json.Json;
import dev.tablewright.validation.ValidationError;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One HTTP API (payload v2) request as a handler sees it: the caller, route and query parameters, and the body
 * decoded strictly (unknown fields rejected), every problem a {@link HttpApiException} with a 4xx status.
 */
public final class HttpRequest {


    private final HttpApiEvent event;
    private final CallerIdentity caller;
    private final int maxBodyBytes;

    HttpRequest(HttpApiEvent event, CallerIdentity caller, int maxBodyBytes) {
        this.event = event;
        this.caller = caller;
        this.maxBodyBytes = maxBodyBytes;
    }

    public CallerIdentity caller() {
        return caller;
    }

    public String method() {
        HttpApiEvent.RequestContext ctx = event.requestContext();
        return ctx != null && ctx.http() != null ? ctx.http().method() : null;
    }

    public String routeKey() {
        return event.routeKey();
    }

    /** A route parameter that must be present and be a plain id; otherwise 400 naming {@code path.<name>}. */
    public String pathId(String name) {
        Map<String, String> params = event.pathParameters();
        String value = params == null ? null : params.get(name);
        if (value == null || value.isBlank()) {
            throw HttpApiException.invalid("path." + name, "route parameter '" + name + "' is missing");
        }
        if (!dev.tablewright.id.PlainId.isValid(value)) {
            throw HttpApiException.invalid("path." + name, "route parameter '" + name + "' must be " + dev.tablewright.id.PlainId.RULE);
        }
        return value;
    }

    /** The {@code limit} query parameter of a paged listing: 1..100, default 25; otherwise 400 naming {@code query.limit}. */
    public int pageLimit() {
        String raw = query("limit").orElse(null);
        if (raw == null) {
            return 25;
        }
        try {
            int v = Integer.parseInt(raw);
            if (v >= 1 && v <= 100) {
                return v;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw HttpApiException.invalid("query.limit", "limit must be a whole number from 1 to 100");
    }

    public Optional<String> query(String name) {
        Map<String, String> params = event.queryStringParameters();
        return Optional.ofNullable(params == null ? null : params.get(name)).filter(v -> !v.isEmpty());
    }

    /** The raw body as text, bounded by the handler's limit; empty when there is none. */
    public String bodyText() {
        String body = event.body();
        if (body == null) {
            return "";
        }
        // Characters bound bytes from below (UTF-8): a cheap first check before any decoding.
        long limit = event.isBase64Encoded() ? (maxBodyBytes * 4L / 3 + 4) : maxBodyBytes;
        if (body.length() > limit) {
            throw tooLarge();
        }
        String text = body;
        if (event.isBase64Encoded()) {
            try {
                text = new String(Base64.getDecoder().decode(body), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw HttpApiException.badRequest("malformed_body", "the body is marked base64 but is not valid base64");
            }
        }
        if (text.length() > maxBodyBytes || text.getBytes(StandardCharsets.UTF_8).length > maxBodyBytes) {
            throw tooLarge();
        }
        return text;
    }

    /** The body as a JSON object node; 400 if absent, malformed or not an object. */
    public JsonNode bodyTree() {
        String text = bodyText();
        if (text.isBlank()) {
            throw HttpApiException.invalid("body", "a JSON object body is required");
        }
        JsonNode node;
        try {
            node = Json.MAPPER.readTree(text);
        } catch (JacksonException e) {
            throw malformed(e);
        }
        if (node == null || !node.isObject()) {
            throw HttpApiException.invalid("body", "the body must be a JSON object");
        }
        return node;
    }

    /** The body decoded into {@code type}, strictly: unknown fields and wrong types are 400s naming the field. */
    public <T> T body(Class<T> type) {
        JsonNode tree = bodyTree();
        java.util.List<ValidationError> mismatches = BodyTypes.mismatches(tree, type);
        if (!mismatches.isEmpty()) {
            throw HttpApiException.invalid(mismatches.size() == 1 ? mismatches.getFirst().field() + ": " + mismatches.getFirst().message()
                    : mismatches.size() + " fields are not valid", mismatches);
        }
        try {
            return STRICT.forType(type).readValue(tree);
        } catch (JacksonException e) {
            throw fieldError(e);
        } catch (java.io.IOException e) {
            throw HttpApiException.badRequest("malformed_json", "the body could not be read");
        }
    }

    /**
     * Bodies are read as typed: unknown fields, and any value of the wrong JSON type, are refused rather than coerced
     * ({@code "1"} is not a version, {@code 2.9} is not a whole number, {@code 5} is not a name).
     */
    private static final ObjectReader STRICT = strictMapper().reader()
            .with(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .with(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .with(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
            .without(DeserializationFeature.ACCEPT_FLOAT_AS_INT);

    private static com.fasterxml.jackson.databind.ObjectMapper strictMapper() {
        com.fasterxml.jackson.databind.ObjectMapper mapper = Json.MAPPER.copy();
        for (com.fasterxml.jackson.databind.type.LogicalType scalar : new com.fasterxml.jackson.databind.type.LogicalType[]{
                com.fasterxml.jackson.databind.type.LogicalType.Integer, com.fasterxml.jackson.databind.type.LogicalType.Float,
                com.fasterxml.jackson.databind.type.LogicalType.Boolean, com.fasterxml.jackson.databind.type.LogicalType.Textual}) {
            var config = mapper.coercionConfigFor(scalar);
            for (com.fasterxml.jackson.databind.cfg.CoercionInputShape shape : new com.fasterxml.jackson.databind.cfg.CoercionInputShape[]{
                    com.fasterxml.jackson.databind.cfg.CoercionInputShape.String, com.fasterxml.jackson.databind.cfg.CoercionInputShape.Integer,
                    com.fasterxml.jackson.databind.cfg.CoercionInputShape.Float, com.fasterxml.jackson.databind.cfg.CoercionInputShape.Boolean}) {
                config.setCoercion(shape, com.fasterxml.jackson.databind.cfg.CoercionAction.Fail);
            }
        }
        // a whole number is still a number
        mapper.coercionConfigFor(com.fasterxml.jackson.databind.type.LogicalType.Float)
                .setCoercion(com.fasterxml.jackson.databind.cfg.CoercionInputShape.Integer, com.fasterxml.jackson.databind.cfg.CoercionAction.TryConvert);
        mapper.configure(com.fasterxml.jackson.databind.MapperFeature.ALLOW_COERCION_OF_SCALARS, false);
        return mapper;
    }

    private HttpApiException tooLarge() {
        return HttpApiException.badRequest("body_too_large", "the body is larger than " + maxBodyBytes + " bytes");
    }

    private static HttpApiException malformed(JacksonException e) {
        if (e instanceof StreamConstraintsException) {
            return HttpApiException.badRequest("malformed_json", "the body exceeds the JSON nesting or size limits");
        }
        return HttpApiException.badRequest("malformed_json", "the body is not valid JSON"
                + (e.getLocation() != null ? " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")" : ""));
    }

    private static HttpApiException fieldError(JacksonException e) {
        if (e instanceof JsonParseException p) {
            return malformed(p);
        }
        String field = e instanceof JsonMappingException m ? path(m) : "body";
        String message = switch (e) {
            case UnrecognizedPropertyException u -> "unknown field '" + u.getPropertyName() + "'";
            case InvalidFormatException f -> "expected " + article(f.getTargetType()) + ", got " + describe(f.getValue());
            case ValueInstantiationException v -> v.getCause() != null && v.getCause().getMessage() != null
                    ? v.getCause().getMessage() : "invalid value";
            case MismatchedInputException m -> m.getTargetType() != null ? "expected " + article(m.getTargetType()) : "wrong type";
            default -> "invalid value";
        };
        if (e instanceof ValueInstantiationException || e instanceof InvalidFormatException) {
            Throwable cause = e.getCause();
            if (cause instanceof IllegalArgumentException iae && iae.getMessage() != null) {
                message = iae.getMessage();
            }
        }
        return HttpApiException.invalid(field + ": " + message, List.of(new ValidationError(field, message)));
    }

    /** {@code fields[0].type} from Jackson's reference chain. */
    static String path(JsonMappingException e) {
        StringBuilder out = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                if (!out.isEmpty()) {
                    out.append('.');
                }
                out.append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                out.append('[').append(ref.getIndex()).append(']');
            }
        }
        return out.isEmpty() ? "body" : out.toString();
    }

    private static String article(Class<?> type) {
        if (type == null) {
            return "a value";
        }
        if (Number.class.isAssignableFrom(type) || type == int.class || type == long.class || type == double.class) {
            return "a number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type == String.class) {
            return "a string";
        }
        if (Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "an array";
        }
        if (type.isEnum()) {
            return "one of " + Arrays.toString(type.getEnumConstants()).toLowerCase(Locale.ROOT);
        }
        return "an object";
    }

    private static String describe(Object value) {
        if (value == null) {
            return "null";
        }
        String s = String.valueOf(value);
        return s.length() > 40 ? "a value of " + s.length() + " characters" : "'" + s + "'";
    }
}
