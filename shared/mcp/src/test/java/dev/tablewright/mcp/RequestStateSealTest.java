package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RequestStateSealTest {

    private static final byte[] KEY = "0123456789abcdef0123456789abcdef-test-key".getBytes(StandardCharsets.UTF_8);
    private static final Instant NOW = Instant.parse("2026-08-01T10:00:00Z");
    private static final RequestStateSeal SEAL = new RequestStateSeal(KEY);
    private static final ObjectNode ARGS = Json.object().put("query", "orders");
    private static final RequestStateSeal.Binding BINDING = new RequestStateSeal.Binding("user-a", "tools/call",
            "search_database_schema", RequestStateSeal.digest(ARGS));

    private static String sealed() {
        return SEAL.seal(BINDING, NOW.plusSeconds(3600), Json.object().put("q", "tablewright_database"));
    }

    @Test
    void aStateOpensForItsOwnCallerCallAndArgumentsUntilItExpires() {
        RequestStateSeal.Opened opened = SEAL.open(sealed(), BINDING, NOW.plusSeconds(3599)).orElseThrow();
        assertEquals("tablewright_database", opened.carried().path("q").asText());
        assertEquals(NOW.plusSeconds(3600), opened.expiresAt());
    }

    @Test
    void theStateIsOpaqueToTheClient() {
        String state = sealed();
        String decoded = new String(Base64.getUrlDecoder().decode(state.substring(3)), StandardCharsets.ISO_8859_1);
        assertFalse(decoded.contains("user-a") || decoded.contains("tablewright_database") || decoded.contains("search_database"), decoded);
        assertNotEquals(state, sealed(), "a fresh nonce each time");
    }

    @Test
    void aTamperedStateIsRefused() {
        String state = sealed();
        byte[] bytes = Base64.getUrlDecoder().decode(state.substring(3));
        for (int i : new int[]{0, 13, bytes.length / 2, bytes.length - 1}) {
            byte[] changed = bytes.clone();
            changed[i] ^= 0x01;
            String tampered = "v1." + Base64.getUrlEncoder().withoutPadding().encodeToString(changed);
            assertTrue(SEAL.open(tampered, BINDING, NOW).isEmpty(), "byte " + i);
        }
        assertTrue(SEAL.open(state.substring(0, state.length() - 2), BINDING, NOW).isEmpty(), "truncated");
        assertTrue(SEAL.open("v1.%%%", BINDING, NOW).isEmpty(), "not Base64");
        assertTrue(SEAL.open("v2" + state.substring(2), BINDING, NOW).isEmpty(), "another version");
        assertTrue(SEAL.open("v1." + "A".repeat(RequestStateSeal.MAX_SEALED_CHARS), BINDING, NOW).isEmpty(), "too long");
        assertTrue(SEAL.open("", BINDING, NOW).isEmpty());
    }

    @Test
    void anExpiredStateIsRefused() {
        assertTrue(SEAL.open(sealed(), BINDING, NOW.plusSeconds(3600)).isEmpty());
    }

    @Test
    void anotherUsersReplayIsRefused() {
        assertTrue(SEAL.open(sealed(), new RequestStateSeal.Binding("user-b", BINDING.method(), BINDING.tool(),
                BINDING.argumentsDigest()), NOW).isEmpty());
    }

    @Test
    void aStateRetargetedAtAnotherToolMethodOrArgumentsIsRefused() {
        String state = sealed();
        assertTrue(SEAL.open(state, new RequestStateSeal.Binding("user-a", "tools/call", "accept_preview",
                BINDING.argumentsDigest()), NOW).isEmpty(), "another tool");
        assertTrue(SEAL.open(state, new RequestStateSeal.Binding("user-a", "resources/read", BINDING.tool(),
                BINDING.argumentsDigest()), NOW).isEmpty(), "another method");
        assertTrue(SEAL.open(state, new RequestStateSeal.Binding("user-a", "tools/call", BINDING.tool(),
                RequestStateSeal.digest(Json.object().put("query", "returns"))), NOW).isEmpty(), "other arguments");
    }

    @Test
    void aStateSealedUnderAnotherKeyIsRefused() {
        RequestStateSeal other = new RequestStateSeal("another-key-another-key-another-key!".getBytes(StandardCharsets.UTF_8));
        assertTrue(other.open(sealed(), BINDING, NOW).isEmpty());
    }

    @Test
    void theArgumentsDigestIgnoresMemberOrderButNotValues() {
        ObjectNode a = Json.object().put("query", "orders").put("database", "staging");
        ObjectNode b = Json.object().put("database", "staging").put("query", "orders");
        assertEquals(RequestStateSeal.digest(a), RequestStateSeal.digest(b));
        assertNotEquals(RequestStateSeal.digest(a), RequestStateSeal.digest(b.put("database", "production")));
        assertEquals(RequestStateSeal.digest(Json.object()), RequestStateSeal.digest(null));
    }

    @Test
    void tooLittleKeyMaterialIsRefusedAtStart() {
        assertThrows(IllegalArgumentException.class, () -> new RequestStateSeal("short".getBytes(StandardCharsets.UTF_8)));
    }
}
