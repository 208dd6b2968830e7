package dev.tablewright.checks.docs;

import dev.tablewright.fakes.node.NodeProject;
import dev.tablewright.fakes.template.SamTemplate;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/api/openapi.yaml as API tooling reads it: lint-clean under Redocly's recommended rules (redocly.yaml), and a
 * TypeScript client generated from it with openapi-typescript compiles under {@code tsc --strict}, building a config
 * and calling three routes (infra/api-client/client.ts).
 */
class OpenApiToolingTest {

    static final Path ROOT = SamTemplate.locate().getParent();
    static final NodeProject CLIENT = new NodeProject(ROOT.resolve("infra/api-client"));

    @Test
    void theApiDescriptionIsLintCleanUnderRedoclysRecommendedRules() throws Exception {
        NodeProject.Result lint = CLIENT.run(180, List.of("npx", "--no-install", "redocly", "lint",
                ROOT.resolve("docs/api/openapi.yaml").toString(), "--config", ROOT.resolve("redocly.yaml").toString(),
                "--format", "stylish"));
        String output = lint.stdout() + lint.stderr();
        assertEquals(0, lint.exit(), output);
        assertTrue(output.contains("valid"), output);
        assertTrue(!output.contains(" warning ") && !output.contains(" error "), "no finding at all:\n" + output);
    }

    @Test
    void aGeneratedTypeScriptClientCompilesUnderStrict() throws Exception {
        Files.createDirectories(CLIENT.directory().resolve("generated"));
        NodeProject.Result generated = CLIENT.run(180, List.of("npx", "--no-install", "openapi-typescript",
                ROOT.resolve("docs/api/openapi.yaml").toString(), "-o", "generated/api.d.ts"));
        assertEquals(0, generated.exit(), generated.stdout() + generated.stderr());
        NodeProject.Result tsc = CLIENT.run(180, List.of("npx", "--no-install", "tsc", "-p", "."));
        assertEquals(0, tsc.exit(), "tsc --strict:\n" + tsc.stdout() + tsc.stderr());
    }
}
