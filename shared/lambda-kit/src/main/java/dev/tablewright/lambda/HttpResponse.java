package dev.tablewright.lambda;

import dev.tablewright.json.Json;

import java.util.LinkedHashMap;
import java.util.Map;

/** A handler's answer: status, a body written as JSON (none for 204), extra headers. */
public record HttpResponse(int status, Object body, Map<String, String> headers) {

    public HttpResponse {
        headers = headers == null ? Map.of() : Map.copyOf(headers);
    }

    public static HttpResponse ok(Object body) {
        return new HttpResponse(200, body, Map.of());
    }

    public static HttpResponse created(Object body) {
        return new HttpResponse(201, body, Map.of());
    }

    public static HttpResponse noContent() {
        return new HttpResponse(204, null, Map.of());
    }

    public static HttpResponse error(int status, ApiError error, Map<String, String> headers) {
        return new HttpResponse(status, new ApiError.Body(error), headers);
    }

    /** The headers sent with the answer: JSON content type when there is a body, never cached, then the handler's. */
    public Map<String, String> allHeaders() {
        Map<String, String> all = new LinkedHashMap<>();
        if (body != null) {
            all.put("Content-Type", "application/json");
        }
        all.put("Cache-Control", "no-store");
        all.putAll(headers);
        return all;
    }

    /** The answer in the HTTP API's Lambda response format (payload 2.0): statusCode, headers, body, isBase64Encoded. */
    public byte[] toLambdaResponse() {
        var response = Json.MAPPER.createObjectNode();
        response.put("statusCode", status);
        var headerNode = response.putObject("headers");
        allHeaders().forEach(headerNode::put);
        response.put("body", body == null ? "" : Json.write(body));
        response.put("isBase64Encoded", false);
        try {
            return Json.MAPPER.writeValueAsBytes(response);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
