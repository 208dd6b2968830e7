package dev.tablewright.checks.architecture;

import dev.tablewright.fakes.template.SamTemplate;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every dependency a module declares on another module of this project is used: its main code (or, for a
 * test-scoped dependency, its test code) names a class of that module. An unused module dependency ships in a
 * function's jar for nothing, and hides the real shape of the tree.
 */
class ModuleDependenciesTest {

    private static final Path ROOT = SamTemplate.locate().getParent();
    private static final Pattern DEPENDENCY = Pattern.compile("<dependency>(.*?)</dependency>", Pattern.DOTALL);
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package ([\\w.]+);");

    /** Dependencies used other than by naming a class, with why. */
    private static final Map<String, String> NOT_BY_NAME = Map.ofEntries(Map.entry(
            "infra/local-stack -> user-input-function", "the local stack loads each handler template.yaml names, by that name"), Map.entry(
            "infra/build-checks -> tablewright-benchmarks", "LayersTest scans the benchmarks' classes from the class path"), Map.entry(
            "infra/local-stack -> tools-function", "the local stack loads each handler template.yaml names, by that name"), Map.entry(
            "infra/local-stack -> configs-function", "the local stack loads each handler template.yaml names, by that name"), Map.entry(
            "infra/local-stack -> conversations-function", "the local stack loads each handler template.yaml names, by that name"), Map.entry(
            "infra/benchmarks -> tablewright-domain", "the benchmarks read the domain's test fixture (fixtures/orders-config.json)"));

    record Declared(String module, String artifactId, boolean testScope, boolean testJar) {
        String key() {
            return module + " -> " + artifactId;
        }
    }

    @Test
    void everyModuleDependencyIsUsed() throws IOException {
        Map<String, String> moduleOfArtifact = moduleOfArtifact();
        List<String> unused = new ArrayList<>();
        for (Declared d : declared(moduleOfArtifact.values())) {
            String target = moduleOfArtifact.get(d.artifactId());
            if (target == null || NOT_BY_NAME.containsKey(d.key())) {
                continue;
            }
            Set<String> packages = packages(ROOT.resolve(target).resolve(d.testJar() ? "src/test/java" : "src/main/java"));
            // a module without main code (the system tests) declares its dependencies for its tests
            Path main = ROOT.resolve(d.module()).resolve("src/main/java");
            String code = sources(d.testScope() || !Files.isDirectory(main) ? ROOT.resolve(d.module()).resolve("src/test/java") : main);
            if (packages.stream().noneMatch(p -> mentions(code, p))) {
                unused.add(d.key() + (d.testScope() ? " (test)" : ""));
            }
        }
        assertEquals(List.of(), unused, "module dependencies no code of the declaring module uses");
    }

    @Test
    void theCheckSeesWhatItLooksFor() throws IOException {
        List<Declared> all = declared(moduleOfArtifact().values());
        assertTrue(all.stream().anyMatch(d -> d.key().equals("shared/agent -> tablewright-tool-catalogue")), all.toString());
        assertTrue(packages(ROOT.resolve("shared/json/src/main/java")).contains("dev.tablewright.json"));
        assertTrue(mentions("import dev.tablewright.json.Json;", "dev.tablewright.json"));
        assertFalse(mentions("import dev.tablewright.jsonish.Thing;", "dev.tablewright.json"));
    }

    /** Each module of the tree by its artifactId. */
    private static Map<String, String> moduleOfArtifact() throws IOException {
        Map<String, String> out = new TreeMap<>();
        for (String module : ModuleMapTest.buildModules(ROOT, "")) {
            out.put(artifactId(Files.readString(ROOT.resolve(module).resolve("pom.xml"))), module);
        }
        return out;
    }

    private static List<Declared> declared(Iterable<String> modules) throws IOException {
        List<Declared> out = new ArrayList<>();
        for (String module : modules) {
            Matcher m = DEPENDENCY.matcher(Files.readString(ROOT.resolve(module).resolve("pom.xml")));
            while (m.find()) {
                String body = m.group(1);
                if (!body.contains("<groupId>dev.tablewright</groupId>")) {
                    continue;
                }
                out.add(new Declared(module, tag(body, "artifactId"), "test".equals(tag(body, "scope")),
                        "test-jar".equals(tag(body, "type"))));
            }
        }
        return out;
    }

    private static boolean mentions(String code, String pkg) {
        return Pattern.compile("\\b" + Pattern.quote(pkg) + "\\.[A-Z*]").matcher(code).find();
    }

    private static String artifactId(String pom) {
        // the project's own artifactId: the first one after the parent block
        return tag(pom.substring(pom.indexOf("</parent>")), "artifactId");
    }

    private static String tag(String xml, String name) {
        Matcher m = Pattern.compile("<" + name + ">([^<]+)</" + name + ">").matcher(xml);
        return m.find() ? m.group(1).trim() : null;
    }

    private static Set<String> packages(Path sources) throws IOException {
        Set<String> out = new TreeSet<>();
        if (!Files.isDirectory(sources)) {
            return out;
        }
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher m = PACKAGE.matcher(Files.readString(f));
                if (m.find()) {
                    out.add(m.group(1));
                }
            }
        }
        return out;
    }

    private static String sources(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return "";
        }
        StringBuilder all = new StringBuilder();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                all.append(Files.readString(f)).append('\n');
            }
        }
        return all.toString();
    }
}
