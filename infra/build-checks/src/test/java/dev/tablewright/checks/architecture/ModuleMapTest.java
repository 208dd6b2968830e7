package dev.tablewright.checks.architecture;

import dev.tablewright.fakes.template.SamTemplate;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** docs/architecture.md's module tables and the Maven tree name the same modules. */
class ModuleMapTest {

    private static final Path ROOT = SamTemplate.locate().getParent();
    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
    private static final Pattern PACKAGING_POM = Pattern.compile("<packaging>pom</packaging>");
    /** A table row whose first cell is a module path in backticks: {@code | `shared/json` | ...}. */
    private static final Pattern ROW = Pattern.compile("(?m)^\\| `((?:shared|functions|infra)/[\\w.-]+)` \\|");

    @Test
    void theArchitecturePagesModuleTablesMatchTheTree() throws IOException {
        Set<String> tree = buildModules(ROOT, "");
        Set<String> documented = documentedModules(Files.readString(ROOT.resolve("docs/architecture.md")));
        assertEquals(tree, documented, "docs/architecture.md's module tables (left: the tree, right: the page)");
    }

    @Test
    void theReadersSeeWhatTheyLookFor() throws IOException {
        Set<String> tree = buildModules(ROOT, "");
        assertTrue(tree.containsAll(Set.of("shared/json", "functions/chat-turn", "infra/dev-fakes", "infra/build-checks")), tree.toString());
        assertTrue(tree.stream().noneMatch(m -> m.equals("shared") || m.equals("infra")), "aggregators are not modules of the map");
        assertEquals(Set.of("shared/json", "infra/dev-fakes"), documentedModules("""
                | module | artifact |
                |---|---|
                | `shared/json` | `tablewright-json` |
                | `infra/dev-fakes` | `tablewright-dev-fakes` |
                not a row: `shared/domain`
                """));
    }

    /** The modules that build a jar, as paths from the root (aggregator poms are walked, not listed). */
    static Set<String> buildModules(Path root, String prefix) throws IOException {
        Set<String> out = new TreeSet<>();
        String pom = Files.readString(root.resolve(prefix).resolve("pom.xml"));
        Matcher m = MODULE.matcher(pom);
        while (m.find()) {
            String module = prefix.isEmpty() ? m.group(1) : prefix + "/" + m.group(1);
            Path modulePom = root.resolve(module).resolve("pom.xml");
            if (PACKAGING_POM.matcher(Files.readString(modulePom)).find()) {
                out.addAll(buildModules(root, module));
            } else {
                out.add(module);
            }
        }
        return out;
    }

    static Set<String> documentedModules(String page) {
        Set<String> out = new TreeSet<>();
        Matcher m = ROW.matcher(page);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }
}
