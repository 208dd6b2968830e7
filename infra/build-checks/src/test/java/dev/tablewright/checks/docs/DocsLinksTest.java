package dev.tablewright.checks.docs;

import dev.tablewright.fakes.template.SamTemplate;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The documentation holds together: docs/index.md links every page under docs/, and every relative link of
 * docs/ and README.md reaches a file that exists and, for a Markdown page, a heading that exists.
 */
class DocsLinksTest {

    private static final Path ROOT = SamTemplate.locate().getParent();
    private static final Pattern LINK = Pattern.compile("!?\\[(?:[^\\]\\[]|\\[[^\\]]*\\])*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+?)\\s*#*\\s*$");
    private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)");
    private static final Pattern INLINE_CODE = Pattern.compile("`+[^`]*`+");
    private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");

    @Test
    void theIndexLinksEveryPageUnderDocs() {
        Path index = ROOT.resolve("docs/index.md");
        assertTrue(Files.isRegularFile(index), "docs/index.md is the map of the documentation");
        Set<Path> linked = new HashSet<>();
        for (Link link : links(index)) {
            linked.add(link.target());
        }
        Set<String> unlinked = new TreeSet<>();
        for (Path page : pages()) {
            if (!page.equals(index) && !linked.contains(page)) {
                unlinked.add(ROOT.relativize(page).toString());
            }
        }
        assertEquals(Set.of(), unlinked, "pages under docs/ that docs/index.md does not link: add each where its kind is");
    }

    @Test
    void everyRelativeLinkResolves() {
        List<Path> sources = new ArrayList<>(markdownUnderDocs());
        sources.add(ROOT.resolve("README.md"));
        Map<Path, Set<String>> anchors = new HashMap<>();
        List<String> broken = new ArrayList<>();
        for (Path source : sources) {
            for (Link link : links(source)) {
                String where = ROOT.relativize(source) + ":" + link.line() + ": " + link.raw();
                String target = ROOT.relativize(link.target()).toString().replace('\\', '/');
                if (!Files.exists(link.target())) {
                    broken.add(where + " (no such file)");
                    continue;
                }
                if (link.anchor() != null && target.endsWith(".md")
                        && !anchors.computeIfAbsent(link.target(), DocsLinksTest::anchorsOf).contains(link.anchor())) {
                    broken.add(where + " (no heading #" + link.anchor() + " in " + target + ")");
                }
            }
        }
        assertEquals(List.of(), broken, "links that lead nowhere");
    }

    @Test
    void theCheckSeesLinksAnchorsAndCode() {
        assertEquals("mcp-elicitation-2025-sessions-and-2026-07-28", slug("MCP elicitation: 2025 sessions and 2026-07-28"));
        assertEquals("how-sam-build-builds", slug("How `sam build` builds"));
        assertEquals("storage-userinputtable", slug("Storage: `UserInputTable`"));
        assertEquals(Set.of("a", "a-1", "b"), anchorsIn(List.of("# A", "```", "# not a heading", "```", "## A", "### B")));
        List<String> targets = new ArrayList<>();
        for (Link link : linksIn(ROOT.resolve("docs/x.md"), List.of(
                "see [one](one.md#part) and ![a picture](screenshots/p.png), `[not](code.md)`, [out](https://example.org)",
                "```", "[inside](fence.md)", "```", "[same page](#here)"))) {
            targets.add(ROOT.relativize(link.target()) + "#" + link.anchor());
        }
        assertEquals(List.of("docs/one.md#part", "docs/screenshots/p.png#null", "docs/x.md#here"), targets);
    }

    /** A relative link: the file it reaches and the heading it names, if any. */
    record Link(Path target, String anchor, int line, String raw) {
    }

    private static List<Path> pages() {
        try (Stream<Path> files = Files.walk(ROOT.resolve("docs"))) {
            return files.filter(Files::isRegularFile)
                    .filter(p -> p.toString().endsWith(".md") || p.toString().endsWith(".yaml"))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Path> markdownUnderDocs() {
        return pages().stream().filter(p -> p.toString().endsWith(".md")).toList();
    }

    private static List<Link> links(Path source) {
        try {
            return linksIn(source, Files.readAllLines(source));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Link> linksIn(Path source, List<String> lines) {
        List<Link> found = new ArrayList<>();
        boolean inFence = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (FENCE.matcher(line).find()) {
                inFence = !inFence;
                continue;
            }
            if (inFence) {
                continue;
            }
            Matcher m = LINK.matcher(INLINE_CODE.matcher(line).replaceAll(""));
            while (m.find()) {
                String raw = m.group(1);
                if (SCHEME.matcher(raw).find()) {
                    continue;
                }
                int hash = raw.indexOf('#');
                String file = hash < 0 ? raw : raw.substring(0, hash);
                String anchor = hash < 0 ? null : raw.substring(hash + 1);
                Path target = file.isEmpty() ? source : source.getParent().resolve(file).normalize();
                found.add(new Link(target, anchor, i + 1, raw));
            }
        }
        return found;
    }

    private static Set<String> anchorsOf(Path page) {
        try {
            return anchorsIn(Files.readAllLines(page));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The anchors GitHub gives a page's headings: a repeated heading's anchor gets -1, -2, ... */
    static Set<String> anchorsIn(List<String> lines) {
        Set<String> anchors = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean inFence = false;
        for (String line : lines) {
            if (FENCE.matcher(line).find()) {
                inFence = !inFence;
                continue;
            }
            Matcher m = HEADING.matcher(line);
            if (inFence || !m.matches()) {
                continue;
            }
            String slug = slug(m.group(1));
            int count = seen.merge(slug, 1, Integer::sum);
            anchors.add(count == 1 ? slug : slug + "-" + (count - 1));
        }
        return anchors;
    }

    /** GitHub's heading anchor: lower case, markup and punctuation dropped, each space a hyphen. */
    static String slug(String heading) {
        String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").toLowerCase(Locale.ROOT);
        StringBuilder slug = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                slug.append(c);
            } else if (c == ' ') {
                slug.append('-');
            }
        }
        return slug.toString();
    }
}
