package dev.tablewright.lambda;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds an HTTP API (payload v2) event the way API Gateway does for a matched route, for the tests and the
 * benchmarks (shipped in this module's test-jar, never in a function's jar). {@code route("POST /conversations/{conversationId}/input-requests", "/conversations/c1/input-requests")}
 * fills {@code routeKey}, {@code rawPath} and the path parameters; {@link #caller(String)} attaches a JWT authorizer
 * {@code sub} claim, as API Gateway's JWT authorizer would ({@link CallerIdentity#DEVELOPMENT_SUBJECT} by default).
 */
public final class HttpApiEventBuilder {

    private static final Pattern PARAM = Pattern.compile("\\{([A-Za-z0-9_]+)\\+?}");

    private final String method;
    private final String routePath;
    private final String rawPath;
    private final Map<String, String> pathParameters = new LinkedHashMap<>();
    private final Map<String, String> query = new LinkedHashMap<>();
    private final Map<String, String> headers = new LinkedHashMap<>();
    private String body;
    private boolean base64;
    private String subject = CallerIdentity.DEVELOPMENT_SUBJECT;
    private String iamUserArn;

    private HttpApiEventBuilder(String method, String routePath, String rawPath) {
        this.method = method;
        this.routePath = routePath;
        this.rawPath = rawPath;
        headers.put("content-type", "application/json");
    }

    /**
     * @param routeKey e.g. {@code GET /conversations/{conversationId}/values}
     * @param rawPath  the concrete path; its segments fill the route's parameters
     */
    public static HttpApiEventBuilder route(String routeKey, String rawPath) {
        String[] parts = routeKey.split(" ", 2);
        HttpApiEventBuilder b = new HttpApiEventBuilder(parts[0], parts[1], rawPath);
        b.pathParameters.putAll(match(parts[1], rawPath));
        return b;
    }

    /** The path parameters {@code rawPath} gives {@code routePath}, or null when it does not match. */
    public static Map<String, String> match(String routePath, String rawPath) {
        String[] route = routePath.split("/", -1);
        String[] raw = rawPath.split("/", -1);
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < route.length; i++) {
            Matcher m = PARAM.matcher(route[i]);
            if (m.matches() && route[i].endsWith("+}")) {
                out.put(m.group(1), String.join("/", List.of(raw).subList(Math.min(i, raw.length), raw.length)));
                return out;
            }
            if (i >= raw.length) {
                return null;
            }
            if (m.matches()) {
                out.put(m.group(1), java.net.URLDecoder.decode(raw[i], StandardCharsets.UTF_8));
            } else if (!route[i].equals(raw[i])) {
                return null;
            }
        }
        return route.length == raw.length ? out : null;
    }

    public HttpApiEventBuilder pathParameter(String name, String value) {
        if (value == null) {
            pathParameters.remove(name);
        } else {
            pathParameters.put(name, value);
        }
        return this;
    }

    public HttpApiEventBuilder query(String name, String value) {
        query.put(name, value);
        return this;
    }

    public HttpApiEventBuilder header(String name, String value) {
        headers.put(name.toLowerCase(java.util.Locale.ROOT), value);
        return this;
    }

    public HttpApiEventBuilder body(String json) {
        this.body = json;
        return this;
    }

    public HttpApiEventBuilder base64Body(byte[] bytes) {
        this.body = java.util.Base64.getEncoder().encodeToString(bytes);
        this.base64 = true;
        return this;
    }

    /** The caller as a JWT {@code sub} claim; null sends no authorizer context at all. */
    public HttpApiEventBuilder caller(String sub) {
        this.subject = sub;
        this.iamUserArn = null;
        return this;
    }

    /** The caller as an IAM-authorised principal. */
    public HttpApiEventBuilder iamCaller(String userArn) {
        this.iamUserArn = userArn;
        this.subject = null;
        return this;
    }

    public HttpApiEvent build() {
        HttpApiEvent.Authorizer authorizer = null;
        if (subject != null) {
            authorizer = new HttpApiEvent.Authorizer(new HttpApiEvent.Jwt(Map.of("sub", subject), List.of()), null);
        } else if (iamUserArn != null) {
            authorizer = new HttpApiEvent.Authorizer(null, new HttpApiEvent.Iam(iamUserArn));
        }
        String rawQuery = query.entrySet().stream()
                .map(e -> e.getKey() + "=" + java.net.URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .reduce((a, b) -> a + "&" + b).orElse("");
        String routeKey = method + " " + routePath;
        return new HttpApiEvent(routeKey, rawPath, rawQuery, new LinkedHashMap<>(headers),
                query.isEmpty() ? null : new LinkedHashMap<>(query),
                pathParameters.isEmpty() ? null : new LinkedHashMap<>(pathParameters),
                body, base64,
                new HttpApiEvent.RequestContext(UUID.randomUUID().toString(), routeKey,
                        new HttpApiEvent.Http(method, rawPath, "127.0.0.1"), authorizer));
    }
}
