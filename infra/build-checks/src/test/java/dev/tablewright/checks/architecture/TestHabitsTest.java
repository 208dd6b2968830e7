package dev.tablewright.checks.architecture;

import dev.tablewright.fakes.template.SamTemplate;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two habits of the suite held by the tree: every deployed module ({@code shared/*}, {@code functions/*}) has tests
 * of its own, and no test waits a fixed time: {@code Thread.sleep} appears only in {@code Poll}, the one bounded poll
 * for a state without a signal (infra/test-support).
 */
class TestHabitsTest {

    private static final Path ROOT = SamTemplate.locate().getParent();
    /** Spelled in two parts so this file is not a hit of its own scan. */
    static final String SLEEP = "Thread." + "sleep(";
    static final Path POLL = Path.of("infra/test-support/src/main/java/dev/tablewright/fakes/concurrent/Poll.java");

    @Test
    void everySharedAndFunctionModuleHasTestsOfItsOwn() throws IOException {
        TreeSet<String> without = new TreeSet<>();
        for (String layer : List.of("shared", "functions")) {
            try (Stream<Path> modules = Files.list(ROOT.resolve(layer))) {
                for (Path module : modules.filter(m -> Files.isRegularFile(m.resolve("pom.xml"))).toList()) {
                    if (javaFiles(module.resolve("src/test/java")).stream().noneMatch(f -> f.getFileName().toString().endsWith("Test.java"))) {
                        without.add(ROOT.relativize(module).toString());
                    }
                }
            }
        }
        assertEquals(new TreeSet<>(), without, "modules without a test of their own");
    }

    @Test
    void noTestSleepsButThePoll() throws IOException {
        TreeSet<String> sleeping = new TreeSet<>();
        for (Path folder : List.of(ROOT.resolve("shared"), ROOT.resolve("functions"), ROOT.resolve("infra"))) {
            try (Stream<Path> tests = Files.walk(folder)) {
                for (Path dir : tests.filter(p -> p.endsWith(Path.of("src", "test", "java"))).toList()) {
                    for (Path file : javaFiles(dir)) {
                        if (Files.readString(file).contains(SLEEP)) {
                            sleeping.add(ROOT.relativize(file).toString());
                        }
                    }
                }
            }
        }
        sleeping.remove(POLL.toString());
        assertEquals(new TreeSet<>(), sleeping, "test files that sleep a fixed time: wait on a signal, or poll through Poll");
        assertTrue(Files.readString(ROOT.resolve(POLL)).contains(SLEEP), "the poll is where the one sleep is");
    }

    /** A self-check: the scan finds a sleeping test where there is one. */
    @Test
    void theScanSeesASleep() throws IOException {
        Path dir = Files.createTempDirectory("habits");
        Path test = Files.createDirectories(dir.resolve("p")).resolve("NappingTest.java");
        Files.writeString(test, "class NappingTest { void t() throws Exception { " + SLEEP + "600); } }");
        assertEquals(1, javaFiles(dir).stream().filter(f -> readQuietly(f).contains(SLEEP)).count());
    }

    private static String readQuietly(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<Path> javaFiles(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(f -> f.toString().endsWith(".java")).toList();
        }
    }
}
