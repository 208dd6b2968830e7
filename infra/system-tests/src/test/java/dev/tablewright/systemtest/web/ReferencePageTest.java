package dev.tablewright.systemtest.web;

import dev.tablewright.localstack.web.ReferencePage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When the local stack rebuilds the page, and that a build it cannot run is reported, not thrown. */
class ReferencePageTest {

    @TempDir
    Path project;

    @Test
    void thePageIsCurrentOnlyWhenItsBuildIsNewerThanEverySource() throws Exception {
        ReferencePage page = new ReferencePage(project);
        Files.createDirectories(project.resolve("src"));
        Path source = Files.writeString(project.resolve("src/App.jsx"), "export const App = () => null;");
        Files.writeString(project.resolve("package-lock.json"), "{}");
        assertFalse(page.isCurrent(), "not built");

        Path index = Files.writeString(Files.createDirectories(project.resolve("dist")).resolve("index.html"), "<html></html>");
        Files.setLastModifiedTime(source, FileTime.from(Instant.now().minusSeconds(60)));
        Files.setLastModifiedTime(project.resolve("package-lock.json"), FileTime.from(Instant.now().minusSeconds(60)));
        Files.setLastModifiedTime(index, FileTime.from(Instant.now()));
        assertTrue(page.isCurrent());

        Files.setLastModifiedTime(source, FileTime.from(Instant.now().plusSeconds(5)));
        assertFalse(page.isCurrent(), "a source changed since the build");
        assertEquals(project.resolve("dist"), page.files().root());
    }

    @Test
    void aBuildThatCannotRunIsReportedAndTheStackGoesOn() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        boolean built = new ReferencePage(project).buildIfNeeded(new PrintStream(out, true, StandardCharsets.UTF_8));
        assertFalse(built);
        String said = out.toString(StandardCharsets.UTF_8);
        assertTrue(said.contains("The reference page is not built") && said.contains("the API and the chat run without it"), said);
    }
}
