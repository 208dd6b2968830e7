package dev.tablewright.functions.mcp;

import dev.tablewright.lambda.Tables;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The MCP function's own variables and its requestState key, read at init. */
class McpFunctionSettingsTest {

    @Test
    void theVariablesAreReadWithTheirDefaults() {
        McpFunctionSettings defaults = McpFunctionSettings.fromEnvironment(Map.of("AUTH_ISSUER", "https://issuer.example"));
        assertEquals("https://issuer.example", defaults.mcp().authorizationServer());
        assertNull(defaults.mcp().resourceUrl());
        assertEquals(Set.of(), defaults.mcp().allowedHosts());
        assertEquals(Duration.ofHours(24), defaults.mcp().sessionTtl());
        assertEquals(Duration.ofSeconds(120), defaults.mcp().elicitationWait());
        Tables tables = Tables.fromEnvironment(Map.of());
        assertEquals("McpSessionsTable", tables.mcpSessions(), "the tables are the door stores' (Tables), read once for every function");
        assertEquals("UserInputTable", tables.userInput());

        McpFunctionSettings set = McpFunctionSettings.fromEnvironment(Map.of("MCP_RESOURCE_URL", " https://mcp.example/mcp ",
                "MCP_ALLOWED_HOSTS", "localhost, 127.0.0.1,,", "MCP_ALLOWED_ORIGINS", "https://app.example",
                "MCP_SESSION_TTL_HOURS", "2", "MCP_ELICITATION_WAIT_SECONDS", "30", "MCP_SESSIONS_TABLE", "sessions"));
        assertEquals("https://mcp.example/mcp", set.mcp().resourceUrl());
        assertEquals(Set.of("localhost", "127.0.0.1"), set.mcp().allowedHosts());
        assertEquals(Set.of("https://app.example"), set.mcp().allowedOrigins());
        assertEquals(Duration.ofHours(2), set.mcp().sessionTtl());
        assertEquals(Duration.ofSeconds(30), set.mcp().elicitationWait());
        assertEquals("sessions", Tables.fromEnvironment(Map.of("MCP_SESSIONS_TABLE", "sessions")).mcpSessions());
    }

    @Test
    void aValueThatCannotBeUsedStopsInitWithItsName() {
        RuntimeException bad = assertThrows(RuntimeException.class,
                () -> McpFunctionSettings.fromEnvironment(Map.of("MCP_SESSION_TTL_HOURS", "a day")));
        assertTrue(bad.getMessage().contains("MCP_SESSION_TTL_HOURS"), bad.getMessage());
    }

    @Test
    void theRequestStateKeyIsTheConfiguredMaterialOrOneOfThisInstance() {
        String material = "k".repeat(40);
        assertArrayEquals(material.getBytes(StandardCharsets.UTF_8), RequestStateKey.fromEnvironment(Map.of(RequestStateKey.KEY, " " + material + " ")));
        IllegalStateException tooShort = assertThrows(IllegalStateException.class,
                () -> RequestStateKey.fromEnvironment(Map.of(RequestStateKey.KEY, "short")));
        assertTrue(tooShort.getMessage().contains(RequestStateKey.KEY) && !tooShort.getMessage().contains("short"), tooShort.getMessage());

        // a template read locally gives the secret's logical id, no ARN: a key of this process, new each time
        byte[] first = RequestStateKey.fromEnvironment(Map.of(RequestStateKey.SECRET_ARN, "McpRequestStateSecret"));
        byte[] second = RequestStateKey.fromEnvironment(Map.of());
        assertEquals(32, first.length);
        assertFalse(java.util.Arrays.equals(first, second));
    }
}
