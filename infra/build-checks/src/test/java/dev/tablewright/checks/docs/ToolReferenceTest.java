package dev.tablewright.checks.docs;

import dev.tablewright.catalogue.ToolCatalogue;
import dev.tablewright.fakes.template.SamTemplate;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** docs/tools.md is generated from the registry; this fails when it is stale (and rewrites it on request). */
class ToolReferenceTest {

    @Test
    void docsToolsMdMatchesTheRegistry() throws Exception {
        Path file = SamTemplate.locate().getParent().resolve("docs/tools.md");
        String expected = ToolReference.render(ToolCatalogue.registry());
        if (Boolean.getBoolean("tools.docs.update")) {
            Files.createDirectories(file.getParent());
            Files.writeString(file, expected, StandardCharsets.UTF_8);
            return;
        }
        if (!Files.isRegularFile(file)) {
            fail("docs/tools.md is missing; generate it with: " + ToolReference.REGENERATE);
        }
        String actual = Files.readString(file, StandardCharsets.UTF_8).replace("\r\n", "\n");
        assertEquals(expected, actual, "docs/tools.md is stale (the registry changed); regenerate it with: "
                + ToolReference.REGENERATE);
    }

    @Test
    void everyToolHasItsSection() {
        String md = ToolReference.render(ToolCatalogue.registry());
        ToolCatalogue.registry().all().forEach(t -> assertTrue(md.contains("\n## " + t.name() + "\n"), t.name()));
    }
}
