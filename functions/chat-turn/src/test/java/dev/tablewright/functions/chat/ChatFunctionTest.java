package dev.tablewright.functions.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agentassembly.AgentAssembly;
import dev.tablewright.http.stream.InMemoryResponseStream;
import dev.tablewright.json.Json;
import dev.tablewright.jwt.JwtVerifier;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The chat function's wiring: built from the assembly alone (no store factory of its own), it refuses a caller
 * without a valid token in the API's error shape before anything else runs, the model included.
 */
class ChatFunctionTest {

    static final Map<String, String> ENV = Map.of("AWS_REGION", "eu-west-1");

    private final AtomicInteger modelCalls = new AtomicInteger();
    private final ChatFunction function = new ChatFunction(
            AgentAssembly.fromEnvironment(ENV).withModel((request, listener) -> {
                modelCalls.incrementAndGet();
                throw new IllegalStateException("the model is never asked for a refused caller");
            }),
            new JwtVerifier("https://issuer.example", Set.of("tablewright"), "http://127.0.0.1:9/jwks"));

    private static ObjectNode event(String authorization) {
        ObjectNode event = Json.object().put("rawPath", "/").put("body", "{\"id\":\"c1\",\"messages\":[]}").put("isBase64Encoded", false);
        event.putObject("requestContext").put("requestId", "r1").putObject("http").put("method", "POST");
        ObjectNode headers = event.putObject("headers").put("content-type", "application/json");
        if (authorization != null) {
            headers.put("authorization", authorization);
        }
        return event;
    }

    private InMemoryResponseStream send(ObjectNode event) {
        InMemoryResponseStream response = new InMemoryResponseStream();
        function.handle(event, response);
        return response;
    }

    @Test
    void aCallerWithoutATokenIsRefusedWithTheApisErrorShape() throws Exception {
        InMemoryResponseStream response = send(event(null));
        assertEquals(401, response.statusCode());
        JsonNode body = Json.MAPPER.readTree(response.body());
        assertEquals("unauthenticated", body.path("error").path("code").asText(), response.body());
        assertTrue(body.path("error").path("message").asText().contains("sign in"), response.body());
        assertEquals(0, modelCalls.get());
    }

    @Test
    void aTokenThatIsNoJwtIsRefusedTheSameWay() throws Exception {
        InMemoryResponseStream response = send(event("Bearer not-a-jwt"));
        assertEquals(401, response.statusCode());
        assertEquals("unauthenticated", Json.MAPPER.readTree(response.body()).path("error").path("code").asText());
        assertEquals(0, modelCalls.get());
    }
}
