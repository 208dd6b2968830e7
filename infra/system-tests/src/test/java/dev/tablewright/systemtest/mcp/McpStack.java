package dev.tablewright.systemtest.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.localstack.local.LocalDeployment;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.fakes.node.NodeProject;
import dev.tablewright.fakes.sampledb.SampleDatabase;
import dev.tablewright.fakes.template.SamTemplate;
import dev.tablewright.json.Json;
import dev.tablewright.postgres.DatabaseUrl;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
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
        DatabaseUrl production = SampleDatabase.ensureLoaded();
        DatabaseUrl staging = SampleDatabase.dedicated(production, "tablewright_staging_test");
        if (staging.equals(production)) {
            throw new IllegalStateException("the test role may not create databases: a staging database is needed");
        }
        try (Connection c = staging.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS sales.returns (id integer PRIMARY KEY, order_id integer, amount numeric(10,2))");
        }
        ObjectNode sources = Json.object();
        sources.putObject("production").put("url", production.jdbcUrlWithCredentials());
        sources.putObject("staging").put("url", staging.jdbcUrlWithCredentials());
        return LocalDeployment.start(LocalDeployment.Settings.forTest(
                Map.of("DATA_SOURCES", Json.write(sources), "MCP_ELICITATION_WAIT_SECONDS", "30"), ModelScript.builder().build()));
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
