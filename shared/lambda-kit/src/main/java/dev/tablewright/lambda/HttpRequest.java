package dev.tablewright.lambda;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;
import dev.tablewright.json.JsonFields;
import dev.tablewright.validation.ValidationCollector;
import dev.tablewright.validation.ValidationError;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

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
    private String bodyText() {
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
    private JsonNode bodyTree() {
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

    /**
     * The body read by {@code reader} over its fields ({@link JsonFields}): every wrong type, unknown field and other
     * problem the reader reports is named in one 400, and the handler gets no value when there is one.
     */
    public <T> T body(Function<JsonFields, T> reader) {
        ValidationCollector problems = new ValidationCollector();
        T value = reader.apply(JsonFields.of((ObjectNode) bodyTree(), "", problems::error, JsonFields.Wording.PLAIN));
        List<ValidationError> errors = problems.report().errors();
        if (!errors.isEmpty()) {
            throw HttpApiException.invalid(errors.size() == 1 ? errors.getFirst().field() + ": " + errors.getFirst().message()
                    : errors.size() + " fields are not valid", errors);
        }
        return value;
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
}
