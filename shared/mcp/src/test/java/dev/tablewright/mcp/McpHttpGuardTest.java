package dev.tablewright.mcp;

import dev.tablewright.http.stream.InMemoryResponseStream;
import dev.tablewright.json.Json;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class McpHttpGuardTest {

    private static final McpSettings LOCAL = new McpSettings("https://issuer.example", null, McpSettings.LOCAL_HOSTS,
            Set.of("https://app.example"), null, null, null, null, null);
    private final McpHttpGuard guard = new McpHttpGuard(LOCAL,
            authorization -> "Bearer good".equals(authorization) ? Optional.of("user-1") : Optional.empty());

    private static McpHttpRequest request(String method, String path, Map<String, String> headers) {
        return new McpHttpRequest(method, path, headers, "", "http");
    }

    @Test
    void aSignedInRequestFromAnAllowedHostIsAdmittedAsItsUser() {
        InMemoryResponseStream response = new InMemoryResponseStream();
        assertEquals(Optional.of("user-1"), guard.admit(request("POST", McpEndpoint.PATH,
                Map.of("Host", "localhost:3000", "Authorization", "Bearer good")), response));
        assertNull(response.statusCode(), "nothing answered: the endpoint goes on");
    }

    @Test
    void noValidTokenIs401NamingTheMetadata() throws Exception {
        InMemoryResponseStream response = new InMemoryResponseStream();
        assertEquals(Optional.empty(), guard.admit(request("POST", McpEndpoint.PATH, Map.of("host", "localhost:3000")), response));
        assertEquals(401, response.statusCode());
        assertEquals("Bearer resource_metadata=\"http://localhost:3000" + McpEndpoint.METADATA_PATH + McpEndpoint.PATH + "\"",
                response.headers().get("www-authenticate"));
        assertEquals(JsonRpc.SERVER_ERROR, Json.parse(response.body()).path("error").path("code").asInt());
    }

    @Test
    void theMetadataNamesTheResourceAndItsIssuerAndOnlyAnswersGet() throws Exception {
        InMemoryResponseStream response = new InMemoryResponseStream();
        assertEquals(Optional.empty(), guard.admit(request("GET", McpEndpoint.METADATA_PATH + McpEndpoint.PATH,
                Map.of("host", "127.0.0.1:3000")), response));
        assertEquals(200, response.statusCode());
        JsonNode metadata = Json.parse(response.body());
        assertEquals("http://127.0.0.1:3000" + McpEndpoint.PATH, metadata.path("resource").asText());
        assertEquals("https://issuer.example", metadata.path("authorization_servers").path(0).asText());

        InMemoryResponseStream post = new InMemoryResponseStream();
        guard.admit(request("POST", McpEndpoint.METADATA_PATH, Map.of("host", "localhost")), post);
        assertEquals(405, post.statusCode());
        assertEquals("GET", post.headers().get("allow"));

        InMemoryResponseStream elsewhere = new InMemoryResponseStream();
        guard.admit(request("GET", "/other", Map.of("host", "localhost")), elsewhere);
        assertEquals(404, elsewhere.statusCode());
    }

    @Test
    void anotherHostOrAForeignOriginIsRefusedBeforeTheToken() {
        InMemoryResponseStream response = new InMemoryResponseStream();
        assertEquals(Optional.empty(), guard.admit(request("POST", McpEndpoint.PATH,
                Map.of("host", "attacker.example", "authorization", "Bearer good")), response));
        assertEquals(403, response.statusCode());
        assertTrue(response.body().contains("Host attacker.example is not allowed"), response.body());

        assertTrue(guard.hostOrOriginRefusal(request("POST", McpEndpoint.PATH,
                Map.of("host", "localhost:3000", "origin", "https://evil.example"))).contains("Origin https://evil.example"));
        assertNull(guard.hostOrOriginRefusal(request("POST", McpEndpoint.PATH,
                Map.of("host", "localhost:3000", "origin", "http://localhost:3000"))), "the endpoint's own origin");
        assertNull(guard.hostOrOriginRefusal(request("POST", McpEndpoint.PATH,
                Map.of("host", "localhost:3000", "origin", "https://app.example"))), "an allowed origin");
        assertNull(guard.hostOrOriginRefusal(request("POST", McpEndpoint.PATH, Map.of("host", "[::1]:3000"))), "IPv6 loopback");
        assertTrue(guard.hostOrOriginRefusal(request("POST", McpEndpoint.PATH, Map.of())).startsWith("Forbidden: Host null"));
    }
}
