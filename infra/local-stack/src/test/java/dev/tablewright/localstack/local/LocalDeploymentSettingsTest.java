package dev.tablewright.localstack.local;

import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.json.Json;
import dev.tablewright.lambda.Env;
import dev.tablewright.postgres.DatabaseUrl;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The local stack honours the settings a user gives it: the user and password in {@code DATABASE_URL}, the model's
 * idle timeout ({@code MODEL_IDLE_TIMEOUT_SECONDS}) and the CORS origins ({@code CORS_ALLOWED_ORIGINS}, the
 * template's {@code CorsAllowedOrigins}).
 */
class LocalDeploymentSettingsTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    static final String ROLE = "tw_local_cred";
    @AutoClose
    private static LocalDeployment stack;

    @BeforeAll
    static void start() throws Exception {
        DatabaseUrl admin = DatabaseUrl.fromEnvironment();
        try (Connection c = admin.connect(); Statement s = c.createStatement()) {
            // a role of its own, so the stack's connections can be told apart from the OS user's
            s.execute("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '" + ROLE + "') THEN "
                    + "CREATE ROLE " + ROLE + " LOGIN SUPERUSER PASSWORD 'local-only'; END IF; END $$");
        }
        String server = admin.jdbcUrl().replaceFirst("^jdbc:postgresql://([^/?]*)/.*$", "$1");
        stack = LocalDeployment.start(LocalDeployment.Settings.forTest(Map.of(
                "DATABASE_URL", "postgres://" + ROLE + ":local-only@" + server + "/test",
                "MODEL_IDLE_TIMEOUT_SECONDS", "1",
                "CORS_ALLOWED_ORIGINS", "https://app.example.com, https://admin.example.com"), ModelScript.builder().build()));
    }

    @Test
    void theFunctionsConnectAsTheUserOfDatabaseUrl() throws Exception {
        DatabaseUrl given = DatabaseUrl.parse(Env.get("DATABASE_URL"));
        assertEquals(ROLE, given.user() != null ? given.user() : userParameter(given.jdbcUrl()));
        try (Connection c = given.connect(); Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT current_user")) {
            r.next();
            assertEquals(ROLE, r.getString(1), "the functions' database URL keeps the user (and its password)");
        }
    }

    @Test
    void aSilentModelIsCutOffAfterTheConfiguredIdleTimeout() throws Exception {
        stack.model().scriptedServer().enqueue(ModelScript.builder()
                .turn(t -> t.text("Let me think").delay(6_000).text(" ... done."))
                .turn(t -> t.text("Let me think").delay(6_000).text(" ... done."))
                .turn(t -> t.text("Let me think").delay(6_000).text(" ... done."))
                .build());
        String token = stack.issuer().mint(DevIssuer.DEV_USER);
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(stack.chatUrl())).timeout(Duration.ofMinutes(2))
                .header("authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofString(LocalDeployment.exampleChatBody().replace("conv-demo-1", "conv-idle-" + System.nanoTime())))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.body().contains("\"type\":\"error\""), r.body());
        assertFalse(r.body().contains("done."), "the turn did not wait for the model past its idle timeout: " + r.body());
    }

    @Test
    void browsersMayCallOnlyFromTheConfiguredOrigins() throws Exception {
        for (String path : new String[]{"/configs", "/chat"}) {
            HttpResponse<String> allowed = preflight(path, "https://app.example.com");
            assertEquals("https://app.example.com", allowed.headers().firstValue("access-control-allow-origin").orElse(null), path);
            HttpResponse<String> other = preflight(path, "https://evil.example.com");
            assertTrue(other.headers().firstValue("access-control-allow-origin").isEmpty(), path + ": " + other.headers().map());
        }
    }

    @Test
    void gatewayErrorsAreJsonWithoutJavaNames() throws Exception {
        String token = stack.issuer().mint(DevIssuer.DEV_USER);
        for (String path : new String[]{"/configs/%zz", "/configs/%C3%28", "/configs/a%2", "/nowhere"}) {
            String answer = raw("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + token
                    + "\r\nConnection: close\r\n\r\n");
            String head = answer.substring(0, Math.max(0, answer.indexOf("\r\n\r\n")));
            String body = answer.substring(answer.indexOf("\r\n\r\n") + 4);
            int status = Integer.parseInt(head.split(" ")[1]);
            assertTrue(status >= 400 && status < 500, path + ": " + answer);
            assertTrue(head.toLowerCase(java.util.Locale.ROOT).contains("content-type: application/json"), path + ": " + head);
            assertTrue(Json.parse(body).isObject(), path + ": " + body);
            assertFalse(answer.contains("Exception") || answer.contains("java.") || answer.contains("<h1>"), path + ": " + answer);
        }
    }

    /** One request written as bytes, so a path no URI class would accept reaches the gateway as a browser may send it. */
    private static String raw(String request) throws Exception {
        URI base = URI.create(stack.url());
        try (java.net.Socket socket = new java.net.Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(request.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            return new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    private static HttpResponse<String> preflight(String path, String origin) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(stack.url() + path))
                .header("Origin", origin).header("Access-Control-Request-Method", "POST")
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String userParameter(String jdbcUrl) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("[?&]user=([^&]*)").matcher(jdbcUrl);
        return m.find() ? java.net.URLDecoder.decode(m.group(1), java.nio.charset.StandardCharsets.UTF_8) : null;
    }
}
