package dev.tablewright.localstack.web;

import dev.tablewright.fakes.node.Node22;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The page builds on Node 22 or later, as its dependencies declare: the machine's node when it is recent enough, else
 * npm's Node 22 package for the platform (so a first {@code npm ci} prints no EBADENGINE warnings). How that Node is
 * found is {@link Node22}'s (Node22Test).
 */
class ReferencePageNodeTest {

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
        assertTrue(Node22.major(v) >= Node22.MAJOR, v + "\n" + said);
    }
}
