package dev.tablewright.localstack.local;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.fakes.template.SamTemplate;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LocalGatewayTest {

    private static LocalGateway gateway;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        SamTemplate template = SamTemplate.load(Path.of(LocalGatewayTest.class.getResource("/local/gateway-template.yaml").toURI()));
        gateway = new LocalGateway(0);
        gateway.start(template, Map.of(
                "EchoFunction", InProcessFunction.fromTemplate(template, "EchoFunction"),
                "StreamFunction", InProcessFunction.fromTemplate(template, "StreamFunction")));
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    private static HttpResponse<String> get(String path, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(gateway.url() + path)).timeout(Duration.ofSeconds(20));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(b.GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void anAuthorisedRouteGetsAPayloadTwoEventWithPathParametersAndClaims() throws Exception {
        HttpResponse<String> r = get("/things/a%20b?x=1&x=2&y=z", gateway.issuer().mint("dev-user"));
        assertEquals(201, r.statusCode(), r.body());
        assertEquals("yes", r.headers().firstValue("x-echo").orElse(null));
        JsonNode echo = Json.MAPPER.readTree(r.body());
        assertEquals("GET /things/{thingId}", echo.path("routeKey").asText());
        assertEquals("a b", echo.path("pathParameters").path("thingId").asText());
        assertEquals("1,2", echo.path("query").path("x").asText());
        assertEquals("dev-user", echo.path("sub").asText());
        assertTrue(echo.path("requestId").asText().length() > 10);
    }

    @Test
    void aLiteralRouteWinsOverAParameterRoute() throws Exception {
        HttpResponse<String> r = get("/things/special", gateway.issuer().mint("dev-user"));
        assertEquals("GET /things/special", Json.MAPPER.readTree(r.body()).path("routeKey").asText());
    }

    @Test
    void withoutAValidTokenAnAuthorisedRouteIs401AndTheFunctionIsNotCalled() throws Exception {
        var issuer = gateway.issuer();
        for (String token : new String[] {null, "garbage", issuer.mintExpired("dev-user", Duration.ofMinutes(10)),
                issuer.mintForged("dev-user"), issuer.mintForAudience("dev-user", "other")}) {
            HttpResponse<String> r = get("/things/1", token);
            assertEquals(401, r.statusCode(), String.valueOf(token));
            assertEquals("{\"message\":\"Unauthorized\"}", r.body());
        }
    }

    @Test
    void anOpenRouteNeedsNoTokenAndGetsNoClaims() throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(gateway.url() + "/open"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"a\":1}")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(201, r.statusCode());
        JsonNode echo = Json.MAPPER.readTree(r.body());
        assertTrue(echo.path("sub").isMissingNode() || echo.path("sub").isNull(), r.body());
        assertEquals("{\"a\":1}", echo.path("body").asText());
    }

    @Test
    void unknownRoutesAndMethodsAre404() throws Exception {
        assertEquals(404, get("/nothing/here", gateway.issuer().mint("dev-user")).statusCode());
        assertEquals(404, get("/open", null).statusCode()); // POST-only route
    }

    @Test
    void theFunctionUrlStreamsEachChunkAsItIsFlushed() throws Exception {
        LatchedChatTurn.firstChunkSeen = new CountDownLatch(1);
        HttpResponse<InputStream> r = HTTP.send(HttpRequest.newBuilder(URI.create(gateway.functionUrl("StreamFunction")))
                .POST(HttpRequest.BodyPublishers.ofString("hello")).build(), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, r.statusCode());
        assertEquals("text/event-stream", r.headers().firstValue("content-type").orElse(null));
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            assertEquals("data: first", lines.readLine());
            LatchedChatTurn.firstChunkSeen.countDown();
            assertEquals("", lines.readLine());
            assertEquals("data: second after-first-was-read", lines.readLine());
            lines.readLine();
            assertEquals("data: hello", lines.readLine());
        }
    }

    @Test
    void corsPreflightIsAnswered() throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(gateway.url() + "/things/1"))
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Origin", "http://localhost:5173").header("Access-Control-Request-Method", "GET").build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(204, r.statusCode());
        assertEquals("*", r.headers().firstValue("access-control-allow-origin").orElse(null));
        assertNull(r.headers().firstValue("x-echo").orElse(null));
    }
}
