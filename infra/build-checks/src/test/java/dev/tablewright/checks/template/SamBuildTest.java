package dev.tablewright.checks.template;

import dev.tablewright.fakes.template.SamTemplate;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The template's functions built the way {@code sam build} builds them (samconfig.toml: build in source; every
 * function {@code BuildMethod: makefile}): {@code make build-<Id>} with ARTIFACTS_DIR, in a copy of the repository,
 * one function per module and a second function of one module. Maven runs once for all of them, each artifact
 * holds its handler, the functions of one module get byte-identical artifacts (one upload), and a changed source
 * makes the next build run Maven again.
 */
class SamBuildTest {

    static final Path ROOT = SamTemplate.locate().getParent();
    static final Map<String, String> ONE_PER_MODULE = Map.of(
            "ApplyColumnChangeFunction", "tools",
            "CreateInputRequestFunction", "user-input",
            "ListConversationsFunction", "conversations",
            "GetConfigFunction", "configs",
            "ChatTurnFunction", "chat-turn",
            "McpFunction", "mcp");
    static final Set<String> SKIPPED_FOLDERS = Set.of("target", "node_modules", ".aws-sam", ".git");

    @TempDir
    static Path copy;
    static SamBuildRehearsal sam;
    static SamTemplate template;

    @BeforeAll
    static void copyTheRepository() throws IOException {
        try (Stream<Path> all = Files.walk(ROOT)) {
            for (Path p : (Iterable<Path>) all.filter(p -> ROOT.relativize(p).toString().isEmpty()
                    || !skipped(ROOT.relativize(p)))::iterator) {
                Path target = copy.resolve(ROOT.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        // offline: the outer build has already resolved every dependency and plugin
        sam = new SamBuildRehearsal(copy, "mvn -o");
        template = SamTemplate.load(copy.resolve("template.yaml"));
    }

    static boolean skipped(Path relative) {
        for (Path part : relative) {
            if (SKIPPED_FOLDERS.contains(part.toString())) {
                return true;
            }
        }
        return false;
    }

    static boolean mavenRan(SamBuildRehearsal.MakeRun run) {
        return run.output().contains("-Dmaven.test.skip=true");
    }

    @Test
    void mavenRunsOnceForEveryModuleAndEachArtifactHoldsItsHandler() throws Exception {
        boolean first = true;
        for (Map.Entry<String, String> f : List.copyOf(ONE_PER_MODULE.entrySet())) {
            SamBuildRehearsal.MakeRun run = sam.build(f.getKey());
            assertEquals(0, run.exit(), run.output());
            assertEquals(first, mavenRan(run), f.getKey() + ": Maven runs for the first function only\n" + run.output());
            first = false;

            Path jar = sam.artifacts(f.getKey()).resolve("lib/" + f.getValue() + ".jar");
            assertTrue(Files.isRegularFile(jar), f.getKey() + ": " + jar);
            String handlerClass = template.handler(f.getKey()).split("::")[0].replace('.', '/') + ".class";
            try (ZipFile zip = new ZipFile(jar.toFile())) {
                assertNotNull(zip.getEntry(handlerClass), f.getKey() + " holds " + handlerClass);
            }
        }
        for (String streamed : List.of("ChatTurnFunction", "McpFunction")) {
            Path wrapper = sam.artifacts(streamed).resolve("streaming-wrapper");
            assertTrue(Files.isRegularFile(wrapper) && Files.getPosixFilePermissions(wrapper).contains(PosixFilePermission.OTHERS_EXECUTE),
                    streamed + ": the streaming runtime's exec wrapper is executable at the task root");
        }
        assertFalse(Files.exists(sam.artifacts("ApplyColumnChangeFunction").resolve("streaming-wrapper")));

        // a second function of the tools module: no Maven, and the same bytes as the first (sam deploy uploads
        // content-addressed zips, so the module's artifact is uploaded once)
        SamBuildRehearsal.MakeRun second = sam.build("ApplyFilterChangeFunction");
        assertEquals(0, second.exit(), second.output());
        assertFalse(mavenRan(second), second.output());
        assertEquals(-1, Files.mismatch(sam.artifacts("ApplyColumnChangeFunction").resolve("lib/tools.jar"),
                sam.artifacts("ApplyFilterChangeFunction").resolve("lib/tools.jar")));
        assertEquals(List.of("lib"), children(sam.artifacts("ApplyFilterChangeFunction")));

        // a changed source: the next build runs Maven again (a function module's source: the Makefile's stamp covers
        // every source it builds from). Asked of make as a dry run: the rebuild would be the first run's Maven
        // command, already shown to build; running it again would only repeat it.
        Path source = copy.resolve("functions/tools/src/main/java/dev/tablewright/functions/tools/ApplySortChangeFunction.java");
        assertTrue(Files.isRegularFile(source), source.toString());
        SamBuildRehearsal.MakeRun unchanged = sam.plan("ApplySortChangeFunction");
        assertEquals(0, unchanged.exit(), unchanged.output());
        assertFalse(mavenRan(unchanged), "nothing changed, nothing to rebuild:\n" + unchanged.output());
        Files.setLastModifiedTime(source, FileTime.from(Instant.now().plusSeconds(5)));
        SamBuildRehearsal.MakeRun rebuilt = sam.plan("ApplySortChangeFunction");
        assertEquals(0, rebuilt.exit(), rebuilt.output());
        assertTrue(mavenRan(rebuilt), "a changed source is rebuilt:\n" + rebuilt.output());
    }

    static List<String> children(Path folder) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
