package dev.tablewright.door;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A Lambda function URL event (payload format 2.0) as a door reads it: method, raw path, headers (lower case, as the
 * function URL gives them) and the body, decoded only when asked ({@link #body}), so a route that reads no body never
 * decodes one.
 */
public record FunctionUrlRequest(String requestId, String method, String rawPath, Map<String, String> headers,
                                 String rawBody, boolean base64) {

    public FunctionUrlRequest {
        headers = Map.copyOf(headers);
    }

    /** The event's parts; a missing method is {@code defaultMethod}. */
    public static FunctionUrlRequest of(JsonNode event, String defaultMethod) {
        Map<String, String> headers = new LinkedHashMap<>();
        event.path("headers").fields().forEachRemaining(e -> headers.put(e.getKey(), e.getValue().asText()));
        return new FunctionUrlRequest(event.path("requestContext").path("requestId").asText(null),
                event.path("requestContext").path("http").path("method").asText(defaultMethod),
                event.path("rawPath").asText(""), headers, event.path("body").asText(""),
                event.path("isBase64Encoded").asBoolean(false));
    }

    /**
     * The body as text: base64 decoded when the event says so, at most {@link Json#MAX_DOCUMENT_CHARS}.
     *
     * @throws BadRequest naming {@code body}: not valid base64, or too large
     */
    public String body() throws BadRequest {
        String raw = rawBody;
        if (base64) {
            try {
                raw = new String(Base64.getDecoder().decode(raw), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw new BadRequest("body", "the body is not valid base64");
            }
        }
        if (raw.length() > Json.MAX_DOCUMENT_CHARS) {
            throw new BadRequest("body", "the body is larger than " + Json.MAX_DOCUMENT_CHARS / (1024 * 1024) + " MB");
        }
        return raw;
    }
}
