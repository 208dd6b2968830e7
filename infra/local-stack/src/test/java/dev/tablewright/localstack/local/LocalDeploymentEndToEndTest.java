package dev.tablewright.localstack.local;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.fakes.template.HttpApiRoutes;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The local stack started in-process and driven over HTTP, as a client would: identity checks on every route of
 * template.yaml and on the chat, and a whole session with the scripted model.
 */
class LocalDeploymentEndToEndTest {

    @AutoClose
    private static LocalDeployment stack;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static final ByteArrayOutputStream BANNER = new ByteArrayOutputStream();

    @BeforeAll
    static void start() throws Exception {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.keySet().removeIf(k -> k.startsWith("OPENAI_")); // always the scripted model here
        stack = LocalDeployment.start(new LocalDeployment.Settings(0, env, new PrintStream(BANNER, true, StandardCharsets.UTF_8)));
    }

    static HttpResponse<String> call(String method, String path, String token, String body) throws Exception {
        return stack.call(method, path, token, body);
    }

    /** A route's path with its parameters filled in from {@code values} (else a placeholder). */
    static String path(HttpApiRoutes.Route route, Map<String, String> values) {
        String path = route.path();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\{([^}+]+)\\+?}").matcher(path);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, java.util.regex.Matcher.quoteReplacement(values.getOrDefault(m.group(1), "probe-" + m.group(1))));
        }
        return m.appendTail(out).toString();
    }

    /** The stack created every handler, so every SnapStart priming hook is registered: each runs without failing. */
    @Test
    void everyHandlersSnapStartPrimingRunsCleanly() {
        assertEquals(List.of(), dev.tablewright.lambda.Priming.primeAllNow());
    }

    @Test
    void theBannerNamesTheUrlsTheIdentityAndTheModel() {
        String banner = BANNER.toString(StandardCharsets.UTF_8);
        assertTrue(banner.contains(stack.chatUrl()), banner);
        assertTrue(banner.contains("user " + DevIssuer.DEV_USER), banner);
        assertTrue(banner.contains("OFFLINE DEMO model"), banner);
        assertTrue(banner.contains("curl -N " + stack.chatUrl()), banner);
    }

    @Test
    void everyRouteAndTheChatRefuseAMissingExpiredForgedOrForeignToken() throws Exception {
        DevIssuer issuer = stack.issuer();
        Map<String, String> badTokens = new LinkedHashMap<>();
        badTokens.put("no token", null);
        badTokens.put("not a JWT", "not-a-token");
        badTokens.put("expired", issuer.mintExpired(DevIssuer.DEV_USER, Duration.ofMinutes(10)));
        badTokens.put("forged signature", issuer.mintForged(DevIssuer.DEV_USER));
        badTokens.put("another audience", issuer.mintForAudience(DevIssuer.DEV_USER, "someone-else"));
        List<HttpApiRoutes.Route> routes = stack.gateway().routes();
        assertFalse(routes.isEmpty(), "template.yaml declares no HTTP API routes");
        List<String> failures = new ArrayList<>();
        for (HttpApiRoutes.Route route : routes) {
            for (Map.Entry<String, String> bad : badTokens.entrySet()) {
                HttpResponse<String> r = call(route.method(), path(route, Map.of()), bad.getValue(), "{}");
                if (r.statusCode() != 401) {
                    failures.add(route.routeKey() + " with " + bad.getKey() + ": " + r.statusCode() + " " + r.body());
                }
            }
        }
        if (!HttpApiRoutes.functionUrls(dev.tablewright.fakes.template.SamTemplate.load(
                dev.tablewright.fakes.template.SamTemplate.locate())).isEmpty()) {
            // the caller is refused before the body is looked at: a valid request, an invalid one and an oversized one
            // all get the same 401
            Map<String, String> bodies = Map.of("a valid body", LocalDeployment.exampleChatBody(), "an empty object", "{}",
                    "a 5 MB body", "{\"messages\":\"" + "x".repeat(5 * 1024 * 1024) + "\"}");
            for (Map.Entry<String, String> bad : badTokens.entrySet()) {
                for (Map.Entry<String, String> body : bodies.entrySet()) {
                    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(stack.chatUrl())).timeout(Duration.ofSeconds(60))
                            .POST(HttpRequest.BodyPublishers.ofString(body.getValue()));
                    if (bad.getValue() != null) {
                        b.header("authorization", "Bearer " + bad.getValue());
                    }
                    HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() != 401 || r.body().contains("field")) {
                        failures.add("chat with " + bad.getKey() + " and " + body.getKey() + ": " + r.statusCode() + " "
                                + r.body().substring(0, Math.min(200, r.body().length())));
                    }
                }
            }
        }
        assertEquals(List.of(), failures, String.join("\n", failures));
    }

    @Test
    void aChatOnAPageTheAssistantDoesNotServeIsRefusedNamingContextPage() throws Exception {
        String token = stack.issuer().mint(DevIssuer.DEV_USER);
        String body = LocalDeployment.exampleChatBody().replace("\"page\":\"tables\"", "\"page\":\"dashboards\"");
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(stack.chatUrl())).timeout(Duration.ofSeconds(60))
                .header("authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(400, r.statusCode(), r.body());
        JsonNode error = Json.objectLiteral(r.body()).path("error");
        assertEquals("context.page", error.path("fields").path(0).path("field").asText(), error.toString());
        assertTrue(error.path("message").asText().contains("dashboards") && error.path("message").asText().contains("tables"),
                error.toString());
    }

    @Test
    void aChatIdThatIsNotAPlainIdIsRefusedNamingIdAndNeverLoggedWhole() throws Exception {
        String token = stack.issuer().mint(DevIssuer.DEV_USER);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        dev.tablewright.logging.StructuredLog.redirect(new PrintStream(log, true, StandardCharsets.UTF_8));
        try {
            for (String id : List.of("x".repeat(1024 * 1024), "y".repeat(3000), "a/b", "conv 1", "#1")) {
                String body = LocalDeployment.exampleChatBody().replace("\"id\":\"conv-demo-1\"", "\"id\":" + Json.write(id));
                HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(stack.chatUrl())).timeout(Duration.ofSeconds(60))
                        .header("authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(400, r.statusCode(), r.body().substring(0, Math.min(300, r.body().length())));
                assertEquals("id", Json.objectLiteral(r.body()).path("error").path("fields").path(0).path("field").asText(), r.body());
                assertTrue(r.body().length() < 1000, "the answer does not echo the id");
            }
        } finally {
            dev.tablewright.logging.StructuredLog.redirect(System.out);
        }
        assertTrue(log.toString(StandardCharsets.UTF_8).lines().allMatch(l -> l.length() < 10_000), "no log line carries the id");
        // a plain id still works
        HttpResponse<String> ok = HTTP.send(HttpRequest.newBuilder(URI.create(stack.chatUrl())).timeout(Duration.ofSeconds(60))
                .header("authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.ofString(
                        LocalDeployment.exampleChatBody().replace("conv-demo-1", "conv.ok:1@x-" + System.nanoTime()))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, ok.statusCode(), ok.body());
    }

    @Test
    void aConfigOverATableThatDoesNotExistIsNotSaved() throws Exception {
        String token = stack.issuer().mint(DevIssuer.DEV_USER);
        HttpResponse<String> r = call("POST", "/configs", token, """
                {"config": {"name": "Ghost %d", "data_source": [{"schema": "sales", "source": "ghost_orders",
                  "select": {"columns": [{"name": "id"}]}}],
                  "visual_settings": {"columns": {"id": {"header": "ID", "type": "number"}}}}}""".formatted(System.nanoTime()));
        assertEquals(400, r.statusCode(), r.body());
        assertTrue(r.body().contains("config.data_source[0]"), r.body());
        assertTrue(r.body().contains("ghost_orders"), r.body());
        HttpResponse<String> list = call("GET", "/configs?limit=100", token, null);
        assertFalse(list.body().contains("ghost_orders"), "nothing was stored: " + list.body());
    }

    @Test
    void anotherUsersTokenFindsNothingOfTheOwners() throws Exception {
        String owner = stack.issuer().mint(DevIssuer.DEV_USER);
        String intruder = stack.issuer().mint("intruder");
        String conversation = "conv-owned-" + System.nanoTime();
        HttpResponse<String> created = call("POST", "/conversations/" + conversation + "/input-requests", owner, """
                {"toolName": "search_database_schema", "toolCallId": "call_owned", "reason": "Which database?",
                 "fields": [{"name": "database", "type": "select", "options": ["production", "staging"], "required": true}]}""");
        assertEquals(201, created.statusCode(), created.body());
        HttpResponse<String> config = call("POST", "/configs", owner, """
                {"config": {"name": "Owned items %d", "data_source": [{"schema": "inventory", "source": "items",
                  "select": {"columns": [{"name": "id"}]}}],
                  "visual_settings": {"columns": {"id": {"header": "ID", "type": "number"}}}}}""".formatted(System.nanoTime()));
        assertEquals(201, config.statusCode(), config.body());
        JsonNode configBody = Json.parse(config.body());
        String configId = configBody.path("config").path("id").asText(configBody.path("id").asText());
        assertFalse(configId.isBlank(), config.body());

        Map<String, String> owned = Map.of("conversationId", conversation, "toolCallId", "call_owned",
                "configId", configId, "version", "1", "previewId", "prv-unknown", "name", "database");
        String configJson = Json.write(configBody.has("config") ? configBody.get("config") : configBody);
        Map<String, String> bodies = Map.of(
                "PUT /configs/{configId}", "{\"baseVersion\": 1, \"config\": " + configJson + "}",
                "POST /configs/{configId}/versions/{version}/restore", "{\"baseVersion\": 1}",
                "PATCH /conversations/{conversationId}", "{\"title\": \"mine now\"}",
                "POST /conversations/{conversationId}/input-requests", """
                        {"toolName": "x_tool", "toolCallId": "call_intruder", "reason": "r",
                         "fields": [{"name": "f", "type": "text"}]}""");
        // Every route that addresses one of the owner's things either answers 404, or (conversations are per
        // owner) answers with the intruder's own, empty or new, data: never anything of the owner's.
        List<String> failures = new ArrayList<>();
        for (HttpApiRoutes.Route route : stack.gateway().routes()) {
            if (!route.path().contains("{") || route.path().startsWith("/users/me")) {
                continue;
            }
            HttpResponse<String> r = call(route.method(), path(route, owned), intruder,
                    bodies.getOrDefault(route.routeKey(), "{\"values\": {\"database\": \"staging\"}}"));
            boolean refused = r.statusCode() == 404;
            boolean ownDataOnly = r.statusCode() / 100 == 2 && !r.body().contains("call_owned") && !r.body().contains(configId);
            if (!refused && !ownDataOnly) {
                failures.add(route.routeKey() + ": " + r.statusCode() + " " + r.body());
            }
        }
        assertEquals(List.of(), failures, "an intruder reached the owner's data:\n" + String.join("\n", failures));
        // The owner's request is still pending, and the config still at version 1.
        HttpResponse<String> pending = call("GET", "/conversations/" + conversation + "/input-requests", owner, null);
        assertTrue(pending.body().contains("call_owned"), pending.body());
        HttpResponse<String> mine = call("GET", "/configs/" + configId, owner, null);
        assertEquals(200, mine.statusCode(), mine.body());
        assertEquals(1, Json.parse(mine.body()).path("config").path("version").asInt(Json.parse(mine.body()).path("version").asInt()), mine.body());
        // Lists are the caller's own: the intruder's list of configs does not show the owner's.
        HttpResponse<String> theirs = call("GET", "/configs", intruder, null);
        assertEquals(200, theirs.statusCode(), theirs.body());
        assertFalse(theirs.body().contains(configId), theirs.body());
    }
}
