package dev.tablewright.localstack.local;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import dev.tablewright.json.Json;

import java.net.URLDecoder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * Builds the payload format 2.0 events API Gateway HTTP APIs and Lambda function URLs send: lower-cased headers
 * (repeated ones joined with commas), cookies apart, query parameters, the body (base64 when it is not UTF-8
 * text), and the request context, with the JWT authorizer's claims where a route has one.
 */
public final class ApiGatewayEvents {

    private static final DateTimeFormatter REQUEST_TIME =
            DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ENGLISH).withZone(ZoneOffset.UTC);

    private ApiGatewayEvents() {
    }

    /** An HTTP API (v2) event for a matched route. */
    public static ObjectNode httpApi(HttpExchange exchange, byte[] body, String routeKey,
                                     Map<String, String> pathParameters, Map<String, String> claims) {
        return routed(common(exchange, body, routeKey), pathParameters, claims);
    }

    /** An HTTP API (v2) event for a route from plain values (the harnesses: a function's first request). */
    public static ObjectNode httpApi(String method, String rawPath, String routeKey, Map<String, String> pathParameters,
                                     Map<String, String> claims, Map<String, String> headers, String body) {
        Map<String, List<String>> all = new LinkedHashMap<>();
        headers.forEach((name, value) -> all.put(name, List.of(value)));
        return routed(common(method, rawPath, null, all, body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8),
                "HTTP/1.1", "127.0.0.1", routeKey), pathParameters, claims);
    }

    private static ObjectNode routed(ObjectNode event, Map<String, String> pathParameters, Map<String, String> claims) {
        if (!pathParameters.isEmpty()) {
            event.set("pathParameters", Json.MAPPER.valueToTree(pathParameters));
        }
        ObjectNode context = (ObjectNode) event.get("requestContext");
        context.put("apiId", "local");
        context.put("stage", "$default");
        if (claims != null) {
            ObjectNode jwt = context.putObject("authorizer").putObject("jwt");
            jwt.set("claims", Json.MAPPER.valueToTree(claims));
            jwt.putNull("scopes");
        }
        return event;
    }

    /** A function URL event (no authorizer: the function checks the caller itself). */
    public static ObjectNode functionUrl(HttpExchange exchange, byte[] body) {
        ObjectNode event = common(exchange, body, "$default");
        ObjectNode context = (ObjectNode) event.get("requestContext");
        context.put("apiId", "local-function-url");
        context.put("stage", "$default");
        return event;
    }

    /**
     * A function URL event from plain values, as the harnesses and the process tests send one through the Runtime
     * API ({@code POST /chat}, {@code POST /mcp}): the one builder of API Gateway's events in infra, with the local
     * gateway's.
     *
     * @param rawPathAndQuery e.g. {@code /mcp} or {@code /chat/c1/stream?x=1}
     * @param headers         by name (lower-cased here)
     */
    public static ObjectNode functionUrl(String method, String rawPathAndQuery, Map<String, String> headers, String body) {
        int q = rawPathAndQuery.indexOf('?');
        Map<String, List<String>> all = new LinkedHashMap<>();
        headers.forEach((name, value) -> all.put(name, List.of(value)));
        ObjectNode event = common(method, q < 0 ? rawPathAndQuery : rawPathAndQuery.substring(0, q),
                q < 0 ? null : rawPathAndQuery.substring(q + 1), all,
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8), "HTTP/1.1", "127.0.0.1", "$default");
        ObjectNode context = (ObjectNode) event.get("requestContext");
        context.put("apiId", "local-function-url");
        context.put("stage", "$default");
        return event;
    }

    private static ObjectNode common(HttpExchange exchange, byte[] body, String routeKey) {
        return common(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(), exchange.getRequestURI().getRawQuery(),
                exchange.getRequestHeaders(), body, exchange.getProtocol(),
                exchange.getRemoteAddress().getAddress().getHostAddress(), routeKey);
    }

    private static ObjectNode common(String method, String rawPath, String rawQuery, Map<String, List<String>> requestHeaders,
                                     byte[] body, String protocol, String sourceIp, String routeKey) {
        ObjectNode event = Json.object();
        event.put("version", "2.0");
        event.put("routeKey", routeKey);
        event.put("rawPath", rawPath);
        event.put("rawQueryString", rawQuery == null ? "" : rawQuery);

        Map<String, String> headers = new LinkedHashMap<>();
        List<String> cookies = new ArrayList<>();
        requestHeaders.forEach((name, values) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.equals("cookie")) {
                for (String v : values) {
                    for (String c : v.split(";")) {
                        if (!c.isBlank()) {
                            cookies.add(c.trim());
                        }
                    }
                }
            } else {
                headers.put(lower, String.join(",", values));
            }
        });
        if (!cookies.isEmpty()) {
            event.set("cookies", Json.MAPPER.valueToTree(cookies));
        }
        event.set("headers", Json.MAPPER.valueToTree(headers));
        Map<String, String> query = queryParameters(rawQuery);
        if (!query.isEmpty()) {
            event.set("queryStringParameters", Json.MAPPER.valueToTree(query));
        }
        if (body.length > 0) {
            String text = utf8(body);
            if (text != null) {
                event.put("body", text);
                event.put("isBase64Encoded", false);
            } else {
                event.put("body", Base64.getEncoder().encodeToString(body));
                event.put("isBase64Encoded", true);
            }
        } else {
            event.put("isBase64Encoded", false);
        }

        Instant now = Instant.now();
        ObjectNode context = event.putObject("requestContext");
        context.put("accountId", "000000000000");
        context.put("domainName", headers.getOrDefault("host", "localhost"));
        context.put("domainPrefix", headers.getOrDefault("host", "localhost").split("[.:]")[0]);
        ObjectNode http = context.putObject("http");
        http.put("method", method.toUpperCase(Locale.ROOT));
        http.put("path", decode(rawPath));
        http.put("protocol", protocol);
        http.put("sourceIp", sourceIp);
        http.put("userAgent", headers.getOrDefault("user-agent", ""));
        context.put("requestId", UUID.randomUUID().toString());
        context.put("routeKey", routeKey);
        context.put("time", REQUEST_TIME.format(now));
        context.put("timeEpoch", now.toEpochMilli());
        return event;
    }

    /** Query parameters as API Gateway v2 passes them: repeated names joined with commas. */
    static Map<String, String> queryParameters(String rawQuery) {
        Map<String, String> out = new LinkedHashMap<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return out;
        }
        for (String pair : rawQuery.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            out.merge(name, value, (a, b) -> a + "," + b);
        }
        return out;
    }

    static String decode(String s) {
        try {
            return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return s;
        }
    }

    private static String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
