package dev.tablewright.fakes.template;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.tablewright.fakes.template.SamTemplate.map;

/**
 * The HTTP API routes and the function URL of template.yaml: what the local gateway serves and what the
 * template test checks. Read from the functions' {@code HttpApi} events, so there is no second list of routes.
 */
public final class HttpApiRoutes {

    /**
     * One route. {@code authorizer} is the JWT authorizer that guards it (the route's own {@code Auth.Authorizer},
     * else the API's {@code DefaultAuthorizer}); empty when the route is open ({@code NONE} or no authorizer).
     */
    public record Route(String method, String path, String functionId, String eventName, String apiId,
                        Optional<String> authorizer) {
        public String routeKey() {
            return method + " " + path;
        }
    }

    private HttpApiRoutes() {
    }

    public static List<Route> of(SamTemplate template) {
        List<Route> routes = new ArrayList<>();
        template.resourcesOfType("AWS::Serverless::Function").forEach((functionId, resource) ->
                map(map(resource.get("Properties")).get("Events")).forEach((eventName, value) -> {
                    Map<String, Object> event = map(value);
                    if (!"HttpApi".equals(event.get("Type"))) {
                        return;
                    }
                    Map<String, Object> props = map(event.get("Properties"));
                    String method = String.valueOf(props.getOrDefault("Method", "ANY")).toUpperCase();
                    String path = String.valueOf(props.getOrDefault("Path", "$default"));
                    String apiId = referencedId(props.get("ApiId")).orElse("ServerlessHttpApi");
                    routes.add(new Route(method, path, functionId, eventName, apiId,
                            authorizer(template, apiId, map(props.get("Auth")))));
                }));
        return routes;
    }

    /** The functions that declare a function URL ({@code FunctionUrlConfig}), with its invoke mode. */
    public static Map<String, String> functionUrls(SamTemplate template) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        template.resourcesOfType("AWS::Serverless::Function").forEach((functionId, resource) -> {
            Map<String, Object> urlConfig = map(map(resource.get("Properties")).get("FunctionUrlConfig"));
            if (!urlConfig.isEmpty()) {
                out.put(functionId, String.valueOf(urlConfig.getOrDefault("InvokeMode", "BUFFERED")));
            }
        });
        return out;
    }

    /** The JWT authorizer definitions of an HttpApi resource ({@code Auth.Authorizers}), by name. */
    public static Map<String, Object> authorizers(SamTemplate template, String apiId) {
        Map<String, Object> api = map(template.section("Resources").get(apiId));
        Map<String, Object> fromApi = map(map(map(api.get("Properties")).get("Auth")).get("Authorizers"));
        if (!fromApi.isEmpty()) {
            return fromApi;
        }
        return map(map(map(template.section("Globals").get("HttpApi")).get("Auth")).get("Authorizers"));
    }

    private static Optional<String> authorizer(SamTemplate template, String apiId, Map<String, Object> routeAuth) {
        Object own = routeAuth.get("Authorizer");
        if (own != null) {
            return "NONE".equals(own) ? Optional.empty() : Optional.of(String.valueOf(own));
        }
        Map<String, Object> api = map(template.section("Resources").get(apiId));
        Object fallback = map(map(api.get("Properties")).get("Auth")).get("DefaultAuthorizer");
        if (fallback == null) {
            fallback = map(map(template.section("Globals").get("HttpApi")).get("Auth")).get("DefaultAuthorizer");
        }
        return fallback == null || "NONE".equals(fallback) ? Optional.empty() : Optional.of(String.valueOf(fallback));
    }

    private static Optional<String> referencedId(Object value) {
        if (value instanceof SamTemplate.Intrinsic(String function, Object argument) && "Ref".equals(function)) {
            return Optional.of(String.valueOf(argument));
        }
        return value instanceof String s ? Optional.of(s) : Optional.empty();
    }
}
