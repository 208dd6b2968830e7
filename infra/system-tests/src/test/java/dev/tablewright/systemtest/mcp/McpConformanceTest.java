package dev.tablewright.systemtest.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.localstack.local.LocalDeployment;
import dev.tablewright.fakes.node.NodeProject;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The official MCP conformance suite ({@code @modelcontextprotocol/conformance}, infra/mcp-client) against the local
 * stack's {@code /mcp}: the server scenarios that apply to a server with these tools. Its client sends no token, so
 * conformance-check.mjs puts a pass-through in front that adds the signed-in user's (and changes nothing else).
 * Needs Node 22 ({@link Node22}); fails, never skips, without Node.
 */
class McpConformanceTest {

    static final List<String> SCENARIOS = List.of("server-initialize", "ping", "tools-list", "dns-rebinding-protection");

    private static LocalDeployment stack;

    @BeforeAll
    static void start() throws Exception {
        stack = McpStack.start();
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void theServerScenariosPass() throws Exception {
        NodeProject clients = McpStack.CLIENTS;
        String node = Node22.binary(clients);
        List<String> command = new ArrayList<>(List.of("env", "MCP_URL=" + stack.mcpUrl(),
                "MCP_TOKEN=" + stack.issuer().mint(DevIssuer.DEV_USER), node,
                clients.directory().resolve("conformance-check.mjs").toString()));
        command.addAll(SCENARIOS);
        NodeProject.Result r = clients.run(600, command);
        assertEquals(0, r.exit(), "conformance-check.mjs failed:\n" + r.stderr() + "\n" + r.stdout());
        JsonNode results = Json.parse(r.stdout());
        for (String scenario : SCENARIOS) {
            JsonNode result = results.path(scenario);
            String output = result.path("output").asText();
            assertEquals(0, result.path("exit").asInt(-1), scenario + " failed:\n" + output);
            java.util.regex.Matcher tally = java.util.regex.Pattern.compile("Passed: (\\d+)/(\\d+), (\\d+) failed").matcher(output);
            assertTrue(tally.find(), scenario + " printed no tally:\n" + output);
            assertEquals(tally.group(2), tally.group(1), scenario + ":\n" + output);
            assertEquals("0", tally.group(3), scenario + ":\n" + output);
        }
    }
}
