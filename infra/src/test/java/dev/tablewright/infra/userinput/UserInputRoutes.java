package dev.tablewright.infra.userinput;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.infra.template.SamTemplate;
import dev.tablewright.json.Json;
import dev.tablewright.lambda.HttpApiEventBuilder;
import dev.tablewright.lambda.HttpApiFunction;
import dev.tablewright.userinput.InputRequestService;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import static dev.tablewright.infra.template.SamTemplate.map;

/**
 * The user-input routes of template.yaml, each served by the handler class the template names, built in-process
 * around one {@link InputRequestService}: requests go through the handlers exactly as API Gateway would deliver
 * them (an HTTP API v2 event in, an {@link APIGatewayV2HTTPResponse} out).
 */
final class UserInputRoutes {

    /** One answer: status, headers, parsed JSON body (null for an empty body). */
    record Answer(int status, Map<String, String> headers, JsonNode body) {
        String errorCode() {
            return body == null ? null : body.at("/error/code").asText(null);
        }
    }

    private final Map<String, HttpApiFunction> byRouteKey = new LinkedHashMap<>();

    UserInputRoutes(InputRequestService service) {
        SamTemplate template;
        try {
            template = SamTemplate.load(SamTemplate.locate());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        template.resourcesOfType("AWS::Serverless::Function").forEach((id, resource) -> {
            Map<String, Object> props = template.functionProperties(id);
            String handler = String.valueOf(props.get("Handler"));
            if (!handler.startsWith("dev.tablewright.functions.userinput.")) {
                return;
            }
            String className = handler.substring(0, handler.indexOf("::"));
            HttpApiFunction function;
            try {
                function = (HttpApiFunction) Class.forName(className).getConstructor(InputRequestService.class).newInstance(service);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("template names " + className + ", which cannot be built", e);
            }
            map(props.get("Events")).values().forEach(event -> {
                Map<String, Object> e = map(event);
                if ("HttpApi".equals(e.get("Type"))) {
                    Map<String, Object> p = map(e.get("Properties"));
                    byRouteKey.put(p.get("Method") + " " + p.get("Path"), function);
                }
            });
        });
        if (byRouteKey.isEmpty()) {
            throw new IllegalStateException("template.yaml has no user-input routes");
        }
    }

    Map<String, HttpApiFunction> routes() {
        return byRouteKey;
    }

    /** Finds the route for {@code method rawPath} and builds the event; the caller customises it before sending. */
    HttpApiEventBuilder request(String method, String rawPath) {
        for (String routeKey : byRouteKey.keySet()) {
            String[] parts = routeKey.split(" ", 2);
            if (parts[0].equals(method) && HttpApiEventBuilder.match(parts[1], rawPath) != null) {
                return HttpApiEventBuilder.route(routeKey, rawPath);
            }
        }
        throw new IllegalArgumentException("no route for " + method + " " + rawPath);
    }

    Answer send(HttpApiEventBuilder request) {
        var event = request.build();
        HttpApiFunction function = byRouteKey.get(event.getRouteKey());
        APIGatewayV2HTTPResponse response = function.handleRequest(event, null);
        JsonNode body = null;
        if (response.getBody() != null && !response.getBody().isEmpty()) {
            try {
                body = Json.parse(response.getBody());
            } catch (IOException e) {
                throw new AssertionError("response body is not JSON: " + response.getBody());
            }
        }
        return new Answer(response.getStatusCode(), response.getHeaders(), body);
    }

    Answer call(String caller, String method, String rawPath, String body) {
        return send(request(method, rawPath).caller(caller).body(body));
    }
}
