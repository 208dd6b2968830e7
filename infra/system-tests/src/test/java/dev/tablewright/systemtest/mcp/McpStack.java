package dev.tablewright.systemtest.mcp;

import dev.tablewright.systemtest.database.TwoDataSources;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.localstack.local.LocalDeployment;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.fakes.node.NodeProject;
import dev.tablewright.fakes.template.SamTemplate;
import dev.tablewright.json.Json;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The local stack with two data sources (production, and staging, which alone has {@code sales.returns}), and the
 * Node project of the real MCP clients (infra/mcp-client: the official TypeScript SDK and conformance suite).
 */
final class McpStack {

    static final NodeProject CLIENTS = new NodeProject(SamTemplate.locate().getParent().resolve("infra/mcp-client"));

    private McpStack() {
    }

    static LocalDeployment start() throws Exception {
        return LocalDeployment.start(LocalDeployment.Settings.forTest(
                Map.of("DATA_SOURCES", TwoDataSources.dataSourcesJson(), "MCP_ELICITATION_WAIT_SECONDS", "30"), ModelScript.builder().build()));
    }

    /** Runs one scenario of mcp-client-check.mjs; a failing client fails the test with what it printed. */
    static JsonNode scenario(LocalDeployment stack, String name, String token, String otherToken) throws Exception {
        Path dir = CLIENTS.directory();
        NodeProject.Result r = CLIENTS.run(180, List.of("env", "MCP_URL=" + stack.mcpUrl(), "MCP_TOKEN=" + token,
                "MCP_OTHER_TOKEN=" + otherToken, "node", dir.resolve("mcp-client-check.mjs").toString(), name));
        if (r.exit() != 0) {
            throw new AssertionError("the MCP client failed in scenario " + name + " (exit " + r.exit() + "):\n" + r.stderr() + "\n" + r.stdout());
        }
        return Json.parse(r.stdout());
    }
}
