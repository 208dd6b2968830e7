package dev.tablewright.systemtest.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.localstack.local.LocalDeployment;
import dev.tablewright.fakes.node.NodeProject;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The official MCP conformance suite ({@code @modelcontextprotocol/conformance}, infra/mcp-client) against the local
 * stack's {@code /mcp}: the server scenarios that apply to a server with these tools, on the 2025 revisions (the 0.1.x
 * suite) and on 2026-07-28 (the 0.2.0-alpha suite, judged against conformance-2026-baseline.yaml: the checks that need
 * the suite's own fixture tools, or prompts and resources, which this server does not have). Its client sends no
 * token, so conformance-check.mjs puts a pass-through in front that adds the signed-in user's (and changes nothing
 * else). Needs Node 22 ({@link NodeProject#node22}); fails, never skips, without it.
 */
class McpConformanceTest {

    static final List<String> SCENARIOS = List.of("server-initialize", "ping", "tools-list", "dns-rebinding-protection");
    static final List<String> SCENARIOS_2026 = List.of("server-stateless", "tools-list", "caching", "http-header-validation",
            "dns-rebinding-protection");

    @AutoClose
    private static LocalDeployment stack;

    @BeforeAll
    static void start() throws Exception {
        stack = McpStack.start();
    }

    @Test
    void theServerScenariosOf2026Pass() throws Exception {
        JsonNode results = run(true, SCENARIOS_2026);
        for (String scenario : SCENARIOS_2026) {
            String output = results.path(scenario).path("output").asText();
            assertEquals(0, results.path(scenario).path("exit").asInt(-1), scenario + " failed:\n" + output);
            assertTrue(output.contains("Baseline check passed"), scenario + ": no failure outside the baseline:\n" + output);
            assertTrue(java.util.regex.Pattern.compile("Passed: [1-9]\\d*/").matcher(output).find(), scenario + " ran checks:\n" + output);
        }
    }

    private static JsonNode run(boolean revision2026, List<String> scenarios) throws Exception {
        NodeProject clients = McpStack.CLIENTS;
        String node = clients.node22();
        List<String> command = new ArrayList<>(List.of("env", "MCP_URL=" + stack.mcpUrl(),
                "MCP_TOKEN=" + stack.issuer().mint(DevIssuer.DEV_USER), node,
                clients.directory().resolve("conformance-check.mjs").toString()));
        if (revision2026) {
            command.add("--2026");
        }
        command.addAll(scenarios);
        NodeProject.Result r = clients.run(600, command);
        assertEquals(0, r.exit(), "conformance-check.mjs failed:\n" + r.stderr() + "\n" + r.stdout());
        return Json.parse(r.stdout());
    }

    @Test
    void theServerScenariosPass() throws Exception {
        JsonNode results = run(false, SCENARIOS);
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
