package dev.tablewright.lambda;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
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

    public APIGatewayV2HTTPResponse toEvent() {
        Map<String, String> all = new LinkedHashMap<>();
        if (body != null) {
            all.put("Content-Type", "application/json");
        }
        all.put("Cache-Control", "no-store");
        all.putAll(headers);
        APIGatewayV2HTTPResponse response = new APIGatewayV2HTTPResponse();
        response.setStatusCode(status);
        response.setHeaders(all);
        response.setBody(body == null ? "" : Json.write(body));
        response.setIsBase64Encoded(false);
        return response;
    }
}
