package dev.tablewright.systemtest.http;

import dev.tablewright.fakes.template.SamTemplate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;
import dev.tablewright.lambda.HttpApiEventBuilder;
import dev.tablewright.lambda.HttpApiFunction;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import static dev.tablewright.fakes.template.SamTemplate.map;

/**
 * The HTTP API routes of template.yaml whose handlers live in one package, each served by the handler class the
 * template names, built in-process around one service object: requests go through the handlers as API Gateway
 * delivers them (an HTTP API v2 event in, an payload 2.0 response out, its body parsed back from text).
 * The config and the user-input API suites each extend it with their package and service.
 */
public class InProcessHttpApi {

    /** One answer: status, headers, parsed JSON body (null when empty). */
    public record Answer(int status, Map<String, String> headers, JsonNode body) {
        public String errorCode() {
            return body == null ? null : body.at("/error/code").asText(null);
        }

        @Override
        public String toString() {
            return status + " " + body;
        }
    }

    private final Map<String, HttpApiFunction> byRouteKey = new LinkedHashMap<>();

    /**
     * @param handlerPackage the handlers' package, with its trailing dot
     * @param serviceType    the type of the handlers' one constructor parameter
     * @param what           names the routes in the error when the template has none
     */
    protected <S> InProcessHttpApi(String handlerPackage, Class<S> serviceType, S service, String what) {
        SamTemplate template;
        try {
            template = SamTemplate.load(SamTemplate.locate());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        template.resourcesOfType("AWS::Serverless::Function").forEach((id, resource) -> {
            Map<String, Object> props = template.functionProperties(id);
            String handler = String.valueOf(props.get("Handler"));
            Map<String, Object> events = map(props.get("Events"));
            if (!handler.startsWith(handlerPackage) || events.isEmpty()) {
                return; // another package's function, or one without a route (a tool function)
            }
            String className = handler.substring(0, handler.indexOf("::"));
            HttpApiFunction function;
            try {
                function = (HttpApiFunction) Class.forName(className).getConstructor(serviceType).newInstance(service);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("template names " + className + ", which cannot be built", e);
            }
            events.values().forEach(event -> {
                Map<String, Object> e = map(event);
                if ("HttpApi".equals(e.get("Type"))) {
                    Map<String, Object> p = map(e.get("Properties"));
                    byRouteKey.put(p.get("Method") + " " + p.get("Path"), function);
                }
            });
        });
        if (byRouteKey.isEmpty()) {
            throw new IllegalStateException("template.yaml has no " + what + " routes");
        }
    }

    public Map<String, HttpApiFunction> routes() {
        return byRouteKey;
    }

    /** The event for {@code method rawPath} on its route; the caller customises it before sending. */
    public HttpApiEventBuilder request(String method, String rawPath) {
        for (String routeKey : byRouteKey.keySet()) {
            String[] parts = routeKey.split(" ", 2);
            if (parts[0].equals(method) && HttpApiEventBuilder.match(parts[1], rawPath) != null) {
                return HttpApiEventBuilder.route(routeKey, rawPath);
            }
        }
        throw new IllegalArgumentException("no route for " + method + " " + rawPath);
    }

    public Answer send(HttpApiEventBuilder request) {
        var event = request.build();
        JsonNode response;
        try {
            // the wire Lambda uses: the event as JSON in, the payload 2.0 response as JSON out
            var out = new java.io.ByteArrayOutputStream();
            byRouteKey.get(event.routeKey()).handleRequest(new java.io.ByteArrayInputStream(Json.MAPPER.writeValueAsBytes(event)), out, null);
            response = Json.parse(out.toString(java.nio.charset.StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new AssertionError("the handler's answer is not a JSON Lambda response", e);
        }
        String text = response.path("body").asText("");
        JsonNode body = null;
        if (!text.isEmpty()) {
            try {
                body = Json.parse(text);
            } catch (IOException e) {
                throw new AssertionError("response body is not JSON: " + text);
            }
        }
        Map<String, String> headers = new java.util.LinkedHashMap<>();
        response.path("headers").properties().forEach(h -> headers.put(h.getKey(), h.getValue().asText()));
        return new Answer(response.path("statusCode").asInt(), headers, body);
    }

    public Answer call(String caller, String method, String rawPath, String body) {
        return send(request(method, rawPath).caller(caller).body(body));
    }

    public Answer call(String caller, String method, String rawPath) {
        return call(caller, method, rawPath, null);
    }
}
