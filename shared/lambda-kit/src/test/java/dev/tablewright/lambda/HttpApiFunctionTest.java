package dev.tablewright.lambda;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;
import dev.tablewright.store.StoreUnavailableException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HttpApiFunctionTest {

    record Item(String name, Long count, Boolean enabled, List<String> tags) {
        static Item read(dev.tablewright.json.JsonFields body) {
            Item item = new Item(body.text("name"), body.integer("count"), body.bool("enabled"), body.texts("tags"));
            body.refuseUnknown(java.util.Set.of("name", "count", "enabled", "tags"));
            return item;
        }
    }

    /** Echoes the caller and the decoded body; some paths fail on purpose. */
    static final class EchoFunction extends HttpApiFunction {
        @Override
        protected HttpResponse handle(HttpRequest request) {
            String id = request.pathId("conversationId");
            switch (id) {
                case "busy" -> throw new StoreUnavailableException("throttled", 2, null);
                case "bug" -> throw new IllegalStateException("secret internal detail");
                case "gone" -> throw HttpApiException.notFound("conversation not found");
                case "moved" -> throw new dev.tablewright.configstore.VersionConflictException("cfg_1", 3, 4L);
                case "taken" -> throw new dev.tablewright.configstore.ConfigNameTakenException("Orders");
                case "catalogue" -> throw new dev.tablewright.schema.CatalogUnavailableException("the database is unreachable", null);
                case "cursor" -> throw new dev.tablewright.configstore.InvalidCursorException();
                case "request" -> throw new dev.tablewright.userinput.InputRequestNotFoundException("no such input request");
                default -> {
                }
            }
            Item item = request.body(Item::read);
            return HttpResponse.ok(Map.of("owner", request.caller().ownerId(), "name", String.valueOf(item.name())));
        }

        @Override
        protected int maxBodyBytes() {
            return 1024;
        }
    }

    private final EchoFunction function = new EchoFunction();

    private HttpApiEventBuilder post(String conversationId) {
        return HttpApiEventBuilder.route("POST /conversations/{conversationId}/items", "/conversations/" + conversationId + "/items");
    }

    private JsonNode body(HttpResponse response) {
        return Json.tree(response.body());
    }

    @Test
    void callerComesFromTheJwtClaimNeverFromTheBody() {
        HttpResponse r = function.respond(post("c1").caller("alice").body("{\"name\":\"x\",\"ownerId\":\"mallory\"}").build(), null);
        // ownerId is not a field of the body type: strict decoding rejects it rather than ignoring it
        assertEquals(400, r.status());
        assertEquals("ownerId", body(r).at("/error/fields/0/field").asText());

        r = function.respond(post("c1").caller("alice").body("{\"name\":\"x\"}").build(), null);
        assertEquals(200, r.status());
        assertEquals("alice", body(r).get("owner").asText());
    }

    @Test
    void iamCallerIsTheUserArn() {
        HttpResponse r = function.respond(post("c1").iamCaller("arn:aws:iam::123:user/bob").body("{}").build(), null);
        assertEquals(200, r.status());
        assertEquals("arn:aws:iam::123:user/bob", body(r).get("owner").asText());
    }

    @Test
    void noAuthorizerContextIs401() {
        HttpResponse r = function.respond(post("c1").caller(null).body("{}").build(), null);
        assertEquals(401, r.status());
        assertEquals("unauthenticated", body(r).at("/error/code").asText());
    }

    @Test
    void malformedJsonIs400() {
        HttpResponse r = function.respond(post("c1").body("{\"name\": ").build(), null);
        assertEquals(400, r.status());
        assertEquals("malformed_json", body(r).at("/error/code").asText());
    }

    @Test
    void nonObjectAndMissingBodiesAre400() {
        assertEquals(400, function.respond(post("c1").body("[1,2]").build(), null).status());
        assertEquals(400, function.respond(post("c1").body(null).build(), null).status());
        assertEquals(400, function.respond(post("c1").body("   ").build(), null).status());
    }

    @Test
    void wrongTypesNameTheField() {
        HttpResponse r = function.respond(post("c1").body("{\"count\":\"many\"}").build(), null);
        assertEquals(400, r.status());
        assertEquals("count", body(r).at("/error/fields/0/field").asText());
        r = function.respond(post("c1").body("{\"tags\":[\"a\",{\"b\":1}]}").build(), null);
        assertEquals(400, r.status());
        assertEquals("tags[1]", body(r).at("/error/fields/0/field").asText());
    }

    @Test
    void everyProblemOfABodyIsNamedInOneAnswer() {
        HttpResponse r = function.respond(post("c1").body("""
                {"name": 5, "count": 2.5, "enabled": "yes", "tags": "a", "owner": "mallory"}""").build(), null);
        assertEquals(400, r.status());
        List<String> fields = new java.util.ArrayList<>();
        body(r).at("/error/fields").forEach(f -> fields.add(f.get("field").asText() + ": " + f.get("message").asText()));
        assertEquals(List.of("name: expected a string, got a number",
                "count: expected an integer, got a non-integral or too large number", "enabled: expected true or false, got a string",
                "tags: expected an array, got a string", "owner: unknown field 'owner'"), fields);
        assertEquals("5 fields are not valid", body(r).at("/error/message").asText());
    }

    @Test
    void missingOrOddRouteParameterIs400() {
        HttpResponse r = function.respond(post("c1").pathParameter("conversationId", null).body("{}").build(), null);
        assertEquals(400, r.status());
        assertEquals("path.conversationId", body(r).at("/error/fields/0/field").asText());
        r = function.respond(post("c1").pathParameter("conversationId", "a/b#c").body("{}").build(), null);
        assertEquals(400, r.status());
    }

    @Test
    void oversizedBodiesAre400BeforeParsing() {
        String big = "{\"name\":\"" + "x".repeat(2000) + "\"}";
        HttpResponse r = function.respond(post("c1").body(big).build(), null);
        assertEquals(400, r.status());
        assertEquals("body_too_large", body(r).at("/error/code").asText());
        r = function.respond(post("c1").base64Body(big.getBytes()).build(), null);
        assertEquals(400, r.status());
    }

    @Test
    void base64BodiesAreDecoded() {
        HttpResponse r = function.respond(post("c1").base64Body("{\"name\":\"b64\"}".getBytes()).build(), null);
        assertEquals(200, r.status());
        assertEquals("b64", body(r).get("name").asText());
    }

    @Test
    void unavailableStoreIs503WithRetryAfter() {
        HttpResponse r = function.respond(post("busy").body("{}").build(), null);
        assertEquals(503, r.status());
        assertEquals("2", r.headers().get("Retry-After"));
        assertEquals("unavailable", body(r).at("/error/code").asText());
    }

    @Test
    void everyDomainFailureIsAnsweredByItsKindOnEveryRoute() {
        HttpResponse moved = function.respond(post("moved").body("{}").build(), null);
        assertEquals(409, moved.status());
        assertEquals("version_conflict", body(moved).at("/error/code").asText());
        assertEquals(4, body(moved).at("/error/currentVersion").asInt(), body(moved).toString());
        assertEquals(3, body(moved).at("/error/baseVersion").asInt());

        HttpResponse taken = function.respond(post("taken").body("{}").build(), null);
        assertEquals(409, taken.status());
        assertEquals("name_taken", body(taken).at("/error/code").asText());

        HttpResponse catalogue = function.respond(post("catalogue").body("{}").build(), null);
        assertEquals(503, catalogue.status(), "a dependency that cannot answer is 503, not a 500");
        assertEquals("1", catalogue.headers().get("Retry-After"));

        HttpResponse cursor = function.respond(post("cursor").body("{}").build(), null);
        assertEquals(400, cursor.status());
        assertEquals("invalid_request", body(cursor).at("/error/code").asText());
        assertEquals("query.cursor", body(cursor).at("/error/fields/0/field").asText(),
                "named where an HTTP client puts it: " + body(cursor));

        HttpResponse request = function.respond(post("request").body("{}").build(), null);
        assertEquals(404, request.status());
        assertEquals("not_found", body(request).at("/error/code").asText());
    }

    @Test
    void notFoundIs404() {
        assertEquals(404, function.respond(post("gone").body("{}").build(), null).status());
    }

    @Test
    void anUnexpectedFailureIsABare500WithoutDetails() throws Exception {
        var response = lambda(dev.tablewright.json.Json.MAPPER.writeValueAsString(post("bug").body("{}").build()));
        assertEquals(500, response.get("statusCode").asInt());
        String body = response.get("body").asText();
        assertFalse(body.contains("secret internal detail"));
        assertFalse(body.contains("at dev."));
        assertTrue(body.contains("\"code\":\"internal\""));
        assertEquals("application/json", response.get("headers").get("Content-Type").asText());
        assertFalse(response.get("isBase64Encoded").asBoolean());
    }

    /** The handler as Lambda calls it: an event as API Gateway sends it (JSON), the payload 2.0 response (JSON). */
    private com.fasterxml.jackson.databind.JsonNode lambda(String event) throws Exception {
        var out = new java.io.ByteArrayOutputStream();
        function.handleRequest(new java.io.ByteArrayInputStream(event.getBytes(java.nio.charset.StandardCharsets.UTF_8)), out, null);
        return dev.tablewright.json.Json.MAPPER.readTree(out.toByteArray());
    }

    @Test
    void anEventAsApiGatewaySendsItIsReadWithItsCallerRouteAndBody() throws Exception {
        // trimmed from AWS's example payload 2.0 event, with fields the handler does not read
        String event = """
                {"version":"2.0","routeKey":"POST /conversations/{conversationId}/items","rawPath":"/conversations/c1/items",
                 "rawQueryString":"","cookies":["a=b"],"headers":{"content-type":"application/json"},
                 "pathParameters":{"conversationId":"c1"},"stageVariables":null,"isBase64Encoded":false,
                 "requestContext":{"accountId":"123456789012","apiId":"api-id","domainName":"id.execute-api.us-east-1.amazonaws.com",
                   "http":{"method":"POST","path":"/conversations/c1/items","protocol":"HTTP/1.1","sourceIp":"192.0.2.1","userAgent":"agent"},
                   "requestId":"id","routeKey":"POST /conversations/{conversationId}/items","stage":"$default","time":"12/Mar/2020:19:03:58 +0000","timeEpoch":1583348638390,
                   "authorizer":{"jwt":{"claims":{"sub":"alice","iss":"https://issuer"},"scopes":["read"]}}},
                 "body":"{\\"name\\":\\"x\\"}"}
                """;
        var response = lambda(event);
        assertEquals(200, response.get("statusCode").asInt(), response.toString());
        assertTrue(response.get("body").asText().contains("alice"), response.toString());
    }

    @Test
    void anEventThatIsNotJsonIsA400() throws Exception {
        assertEquals(400, lambda("not json").get("statusCode").asInt());
    }
}
