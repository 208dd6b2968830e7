package dev.tablewright.localstack.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.fakes.template.HttpApiRoutes;
import dev.tablewright.fakes.template.SamTemplate;
import dev.tablewright.localstack.web.PageConfig;
import dev.tablewright.localstack.web.StaticFiles;
import dev.tablewright.json.Json;
import dev.tablewright.jwt.JwtVerifier;
import dev.tablewright.logging.StructuredLog;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One local HTTP endpoint for the whole stack, standing in for API Gateway and the Lambda function URL:
 * <ul>
 *   <li>every {@code HttpApi} route of template.yaml, invoked in-process with a payload 2.0 event; a route
 *       guarded by a JWT authorizer gets the bearer token checked as API Gateway's JWT authorizer does (401
 *       {@code {"message":"Unauthorized"}} otherwise) and the claims in
 *       {@code requestContext.authorizer.jwt.claims};</li>
 *   <li>every function URL of template.yaml on its door's paths ({@link LocalDoors}: the chat at {@value #CHAT_PATH},
 *       MCP at {@value #MCP_PATH} and its protected-resource metadata, AG-UI at {@value #AGUI_PATH}; a function URL
 *       whose handler is no door at {@value #FUNCTION_URL_PATH}/{logical id}), streamed: each chunk the function
 *       flushes is sent at once (no authorizer: the function checks the token itself, as in AWS);</li>
 *   <li>the development OIDC issuer at {@value DevIssuer#CONTEXT_PATH};</li>
 *   <li>a web page ({@link #page}), on the same origin: a GET no route takes is one of its files, or its
 *       {@value #PAGE_CONFIG_PATH}.</li>
 * </ul>
 */
public final class LocalGateway implements AutoCloseable {

    public static final int DEFAULT_PORT = 3000;
    static final String FUNCTION_URL_PATH = "/function-urls";
    public static final String CHAT_PATH = "/chat";
    public static final String MCP_PATH = dev.tablewright.mcp.McpEndpoint.PATH;
    public static final String AGUI_PATH = "/agui";
    public static final String PAGE_CONFIG_PATH = "/config.json";
    private static final int MAX_BODY_BYTES = 10 * 1024 * 1024; // API Gateway's payload limit
    private static final StructuredLog LOG = StructuredLog.of(LocalGateway.class);

    private record CompiledRoute(HttpApiRoutes.Route route, Pattern pattern, List<String> names, int literalChars,
                                 boolean greedy) {
    }

    private final HttpServer server;
    private final RequestLineGuard front;
    private final DevIssuer issuer;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final List<CompiledRoute> routes = new ArrayList<>();
    private JwtVerifier verifier;
    private Map<String, InProcessFunction> functions = Map.of();
    private final Map<LocalDoors.Door, InProcessFunction> doors = new LinkedHashMap<>();
    /** Function URLs whose handler is no door of {@link LocalDoors}, each at {@value #FUNCTION_URL_PATH}/{logical id}. */
    private final Map<String, InProcessFunction> otherUrls = new LinkedHashMap<>();
    private Set<String> corsOrigins = Set.of("*");
    private StaticFiles pageFiles;
    private PageConfig pageConfig;
    private volatile boolean started;

    /** Binds the port (0: any free one) and creates the development issuer for it; {@link #start} serves. */
    public LocalGateway(int port) throws IOException {
        // the JDK server listens on a private port; the requested one is served by the guard in front of it
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        this.front = new RequestLineGuard(port, server.getAddress().getPort());
        this.issuer = DevIssuer.forPort(front.port());
    }

    public int port() {
        return front.port();
    }

    /** Base URL, e.g. {@code http://localhost:3000}. */
    public String url() {
        return "http://localhost:" + port();
    }

    public String chatUrl() {
        return url() + CHAT_PATH;
    }

    /** The URL of a function URL whose handler is no door the stack knows (served as is, at its logical id). */
    public String functionUrl(String logicalId) {
        return url() + FUNCTION_URL_PATH + "/" + logicalId;
    }

    public String mcpUrl() {
        return url() + MCP_PATH;
    }

    public String aguiUrl() {
        return url() + AGUI_PATH;
    }

    public DevIssuer issuer() {
        return issuer;
    }

    /** The environment the functions need to trust this gateway's issuer (the chat function verifies itself). */
    public Map<String, String> authEnvironment() {
        return Map.of("AUTH_ISSUER", issuer.issuer(), "AUTH_AUDIENCE", issuer.audience(),
                "AUTH_JWKS_URL", issuer.jwksUrl());
    }

    /** Allowed CORS origins ({@code *} for any), as the template's CORS parameters would set. */
    public LocalGateway corsOrigins(Set<String> origins) {
        this.corsOrigins = Set.copyOf(origins);
        return this;
    }

    /** Serves a web page beside the API: its files, and {@code config} as {@value #PAGE_CONFIG_PATH}. */
    public LocalGateway page(StaticFiles files, PageConfig config) {
        this.pageFiles = files;
        this.pageConfig = config;
        return this;
    }

    /** Whether a built page is served at {@code /}. */
    public boolean servesPage() {
        return pageFiles != null && pageFiles.hasIndex();
    }

    /**
     * Serves the template's routes with the given in-process functions (by logical id). A route whose
     * function is not in {@code functions} answers 502, as a function that fails to initialise would.
     */
    public LocalGateway start(SamTemplate template, Map<String, InProcessFunction> functions) {
        this.functions = Map.copyOf(functions);
        this.verifier = new JwtVerifier(issuer.issuer(), Set.of(issuer.audience()), issuer.jwksUrl());
        for (HttpApiRoutes.Route route : HttpApiRoutes.of(template)) {
            routes.add(compile(route));
        }
        // Most specific first: no greedy parameter, then more literal characters.
        routes.sort(Comparator.comparing(CompiledRoute::greedy).thenComparing(r -> -r.literalChars()));
        // each function URL on its door's paths, the door found by the function's handler
        for (String id : HttpApiRoutes.functionUrls(template).keySet()) {
            InProcessFunction f = this.functions.get(id);
            if (f != null) {
                LocalDoors.forHandler(f.handlerClassName()).ifPresentOrElse(door -> doors.putIfAbsent(door, f),
                        () -> otherUrls.put(FUNCTION_URL_PATH + "/" + id, f));
            }
        }
        issuer.mountOn(server);
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
        front.start();
        started = true;
        return this;
    }

    public List<HttpApiRoutes.Route> routes() {
        return routes.stream().map(CompiledRoute::route).toList();
    }

    @Override
    public void close() {
        front.close();
        if (started) {
            server.stop(0);
        } else {
            // Bound but never started: HttpServer.stop would wait for a dispatcher that never ran.
            try {
                server.start();
            } finally {
                server.stop(0);
            }
        }
        executor.shutdownNow();
    }

    private void handle(HttpExchange exchange) {
        long started = System.nanoTime();
        String method = exchange.getRequestMethod().toUpperCase(Locale.ROOT);
        String path = exchange.getRequestURI().getPath();
        int status = 500;
        try {
            if (method.equals("OPTIONS") && exchange.getRequestHeaders().containsKey("Access-Control-Request-Method")) {
                status = preflight(exchange);
            } else if (LocalDoors.forPath(path).isPresent()) {
                status = functionUrl(exchange, doors.get(LocalDoors.forPath(path).get()));
            } else if (otherUrls.containsKey(path)) {
                status = functionUrl(exchange, otherUrls.get(path));
            } else {
                status = route(exchange, method, path);
            }
        } catch (Exception e) {
            LOG.error("gateway failure", e, "method", method, "path", path);
            status = sendJson(exchange, 500, "{\"message\":\"Internal Server Error\"}", Map.of());
        } finally {
            LOG.info("request", "method", method, "path", path, "status", status,
                    "millis", (System.nanoTime() - started) / 1_000_000);
            exchange.close();
        }
    }

    private int route(HttpExchange exchange, String method, String path) throws Exception {
        for (CompiledRoute candidate : routes) {
            String routeMethod = candidate.route().method();
            if (!routeMethod.equals("ANY") && !routeMethod.equals(method)) {
                continue;
            }
            Matcher m = candidate.pattern().matcher(path);
            if (!m.matches()) {
                continue;
            }
            Map<String, String> pathParameters = new LinkedHashMap<>();
            for (int i = 0; i < candidate.names().size(); i++) {
                pathParameters.put(candidate.names().get(i), ApiGatewayEvents.decode(m.group(i + 1)));
            }
            return invokeRoute(exchange, candidate.route(), pathParameters);
        }
        if (method.equals("GET") && pageFiles != null) {
            return page(exchange, path);
        }
        return sendJson(exchange, 404, "{\"message\":\"Not Found\"}", Map.of());
    }

    /** A file of the page, or its config; anything else the plain JSON 404 (a bad path never reaches the disk). */
    private int page(HttpExchange exchange, String path) throws IOException {
        if (path.equals(PAGE_CONFIG_PATH)) {
            return sendJson(exchange, 200, pageConfig.toJson(), Map.of("cache-control", "no-store"));
        }
        Optional<StaticFiles.Found> found = pageFiles.find(path);
        if (found.isEmpty()) {
            String message = path.equals("/") ? "the reference page is not built: cd infra/web && npm ci && npm run build"
                    : "Not Found";
            return sendJson(exchange, 404, Json.write(Json.object().put("message", message)), Map.of());
        }
        // Vite names assets by content hash: they never change; index.html must be read afresh
        String cache = path.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "no-cache";
        return send(exchange, 200, found.get().bytes(),
                Map.of("content-type", found.get().contentType(), "cache-control", cache));
    }

    private int invokeRoute(HttpExchange exchange, HttpApiRoutes.Route route, Map<String, String> pathParameters)
            throws Exception {
        Map<String, String> claims = null;
        if (route.authorizer().isPresent()) {
            try {
                claims = verifier.verifyAuthorization(exchange.getRequestHeaders().getFirst("Authorization")).claims();
            } catch (JwtVerifier.Rejected e) {
                LOG.info("unauthorized", "route", route.routeKey(), "reason", e.getMessage());
                return sendJson(exchange, 401, "{\"message\":\"Unauthorized\"}",
                        Map.of("www-authenticate", "Bearer"));
            }
        }
        byte[] body = readBody(exchange);
        if (body == null) {
            return sendJson(exchange, 413, "{\"message\":\"Request Entity Too Large\"}", Map.of());
        }
        InProcessFunction function = functions.get(route.functionId());
        if (function == null) {
            LOG.warn("route has no running function", "route", route.routeKey(), "function", route.functionId());
            return sendJson(exchange, 502, "{\"message\":\"Internal Server Error\"}", Map.of());
        }
        ObjectNode event = ApiGatewayEvents.httpApi(exchange, body, route.routeKey(), pathParameters, claims);
        JsonNode result;
        try {
            result = function.invoke(event);
        } catch (Exception e) {
            LOG.error("function failed", e, "function", route.functionId());
            return sendJson(exchange, 500, "{\"message\":\"Internal Server Error\"}", Map.of());
        }
        return sendFunctionResult(exchange, result);
    }

    /** Payload 2.0 response mapping: a {@code statusCode} object is the response; anything else is a 200 JSON body. */
    private int sendFunctionResult(HttpExchange exchange, JsonNode result) throws IOException {
        if (result == null || result.isNull()) {
            return sendJson(exchange, 200, "", Map.of());
        }
        if (!result.isObject() || !result.has("statusCode")) {
            return sendJson(exchange, 200, Json.MAPPER.writeValueAsString(result), Map.of());
        }
        int status = result.path("statusCode").asInt(200);
        Map<String, String> headers = new LinkedHashMap<>();
        result.path("headers").fields().forEachRemaining(e -> headers.put(e.getKey(), e.getValue().asText()));
        result.path("multiValueHeaders").fields().forEachRemaining(e -> {
            List<String> values = new ArrayList<>();
            e.getValue().forEach(v -> values.add(v.asText()));
            headers.put(e.getKey(), String.join(",", values));
        });
        result.path("cookies").forEach(c -> exchange.getResponseHeaders().add("Set-Cookie", c.asText()));
        JsonNode bodyNode = result.get("body");
        byte[] body = bodyNode == null || bodyNode.isNull() ? new byte[0]
                : result.path("isBase64Encoded").asBoolean(false) ? Base64.getDecoder().decode(bodyNode.asText())
                : bodyNode.asText().getBytes(StandardCharsets.UTF_8);
        headers.putIfAbsent("content-type", "application/json");
        return send(exchange, status, body, headers);
    }

    /**
     * A function URL, streamed: the door's function checks the token (and MCP the Host and the Origin) itself. The
     * event says the request came over plain HTTP ({@code x-forwarded-proto}), as a proxy in front of it would.
     */
    private int functionUrl(HttpExchange exchange, InProcessFunction function) throws Exception {
        if (function == null) {
            return sendJson(exchange, 404, "{\"message\":\"no function URL in template.yaml for this path\"}", Map.of());
        }
        byte[] body = readBody(exchange);
        if (body == null) {
            return sendJson(exchange, 413, "{\"message\":\"Request Entity Too Large\"}", Map.of());
        }
        ObjectNode event = ApiGatewayEvents.functionUrl(exchange, body);
        ((ObjectNode) event.get("headers")).put("x-forwarded-proto", "http");
        ExchangeResponseStream response = new ExchangeResponseStream(exchange, corsHeaders(exchange));
        try {
            function.stream(event, response);
        } catch (Exception e) {
            LOG.error("function URL failed", e, "function", function.logicalId());
            response.fail(e.getClass().getSimpleName(), "the function failed");
        }
        response.close();
        return exchange.getResponseCode();
    }

    private int preflight(HttpExchange exchange) throws IOException {
        Map<String, String> headers = new LinkedHashMap<>(corsHeaders(exchange));
        if (headers.isEmpty()) {
            return send(exchange, 204, new byte[0], Map.of());
        }
        headers.put("Access-Control-Allow-Methods", "GET,POST,PUT,PATCH,DELETE,OPTIONS");
        headers.put("Access-Control-Allow-Headers", "authorization,content-type,mcp-session-id,mcp-protocol-version,mcp-method,mcp-name,last-event-id");
        headers.put("Access-Control-Expose-Headers", "mcp-session-id,www-authenticate");
        headers.put("Access-Control-Max-Age", "600");
        return send(exchange, 204, new byte[0], headers);
    }

    private Map<String, String> corsHeaders(HttpExchange exchange) {
        String origin = exchange.getRequestHeaders().getFirst("Origin");
        if (origin == null || !(corsOrigins.contains("*") || corsOrigins.contains(origin))) {
            return Map.of();
        }
        return Map.of("Access-Control-Allow-Origin", corsOrigins.contains("*") ? "*" : origin, "Vary", "Origin");
    }

    private int sendJson(HttpExchange exchange, int status, String body, Map<String, String> headers) {
        Map<String, String> all = new LinkedHashMap<>(headers);
        all.put("content-type", "application/json");
        try {
            return send(exchange, status, body.getBytes(StandardCharsets.UTF_8), all);
        } catch (IOException e) {
            return status;
        }
    }

    private int send(HttpExchange exchange, int status, byte[] body, Map<String, String> headers) throws IOException {
        corsHeaders(exchange).forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
        headers.forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
        return status;
    }

    /** The request body, or null when it is over the limit. */
    private static byte[] readBody(HttpExchange exchange) throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            byte[] bytes = in.readNBytes(MAX_BODY_BYTES + 1);
            return bytes.length > MAX_BODY_BYTES ? null : bytes;
        }
    }

    private static CompiledRoute compile(HttpApiRoutes.Route route) {
        if (route.path().equals("$default")) {
            return new CompiledRoute(route, Pattern.compile(".*"), List.of(), -1, true);
        }
        StringBuilder regex = new StringBuilder();
        List<String> names = new ArrayList<>();
        int literal = 0;
        boolean greedy = false;
        Matcher m = Pattern.compile("\\{([^}]+)}").matcher(route.path());
        int last = 0;
        while (m.find()) {
            String text = route.path().substring(last, m.start());
            regex.append(Pattern.quote(text));
            literal += text.length();
            String name = m.group(1);
            if (name.endsWith("+")) {
                names.add(name.substring(0, name.length() - 1));
                regex.append("(.+)");
                greedy = true;
            } else {
                names.add(name);
                regex.append("([^/]+)");
            }
            last = m.end();
        }
        String tail = route.path().substring(last);
        regex.append(Pattern.quote(tail));
        literal += tail.length();
        return new CompiledRoute(route, Pattern.compile(regex.toString()), names, literal, greedy);
    }

    /** The route a request would reach (tests). */
    Optional<HttpApiRoutes.Route> match(String method, String path) {
        return routes.stream()
                .filter(r -> r.route().method().equals("ANY") || r.route().method().equals(method))
                .filter(r -> r.pattern().matcher(path).matches())
                .map(CompiledRoute::route).findFirst();
    }
}
