package dev.tablewright.localstack.web;

import dev.tablewright.fakes.node.Node22;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Stream;

/**
 * The reference page's project ({@code infra/web}: React, useChat, Vite) and its build. {@code infra/bin/local-stack}
 * builds it with npm when its {@code dist} is missing or older than its sources; without Node and npm the stack still
 * starts, and says the page is not built.
 *
 * <p>The page's dependencies need Node {@value Node22#MAJOR} or later ({@code ai} 7 declares {@code node >=22}; on an
 * older Node, {@code npm ci} prints an {@code EBADENGINE} warning per package): the build runs on the Node
 * {@link Node22} gives (the machine's, or npm's own Node 22 in {@code infra/web/.node22}), first on the build's PATH, so
 * npm itself runs on it too.
 */
public record ReferencePage(Path directory) {

    /** The page's project beside template.yaml: {@code <root>/infra/web}. */
    public static ReferencePage besideTemplate(Path templateFile) {
        return new ReferencePage(templateFile.toAbsolutePath().getParent().resolve("infra").resolve("web"));
    }

    public Path dist() {
        return directory.resolve("dist");
    }

    public StaticFiles files() {
        return new StaticFiles(dist());
    }

    /** Built, and no source is newer than the build. */
    public boolean isCurrent() throws IOException {
        Path index = dist().resolve("index.html");
        if (!Files.isRegularFile(index)) {
            return false;
        }
        FileTime built = Files.getLastModifiedTime(index);
        try (Stream<Path> sources = Stream.concat(Stream.of(directory.resolve("index.html"), directory.resolve("vite.config.js"),
                directory.resolve("package-lock.json")), Files.walk(directory.resolve("src")))) {
            return sources.filter(Files::isRegularFile).allMatch(p -> {
                try {
                    return Files.getLastModifiedTime(p).compareTo(built) <= 0;
                } catch (IOException e) {
                    return false;
                }
            });
        }
    }

    /**
     * Builds the page when it is not current: {@code npm ci} when node_modules are missing or older than the lock
     * file, then {@code npm run build}, on Node {@value #Node22.MAJOR}+ ({@link #nodeBin}); their output goes to {@code
     * out}. Returns whether the page is built; a failure is reported on {@code out}, not thrown (the API works without
     * the page).
     */
    public boolean buildIfNeeded(PrintStream out) {
        try {
            if (isCurrent()) {
                return true;
            }
            out.println("Building the reference page (" + directory + ": npm ci, npm run build) ...");
            if (!Files.isRegularFile(directory.resolve("package.json"))) {
                throw new IOException("no package.json in " + directory);
            }
            Path bin = nodeBin(out);
            Path marker = directory.resolve("node_modules/.package-lock.json");
            if (!Files.exists(marker) || Files.getLastModifiedTime(marker).compareTo(Files.getLastModifiedTime(directory.resolve("package-lock.json"))) < 0) {
                Node22.run(directory, bin, out, List.of("npm", "ci", "--no-audit", "--no-fund"));
            }
            Node22.run(directory, bin, out, List.of("npm", "run", "build"));
            return true;
        } catch (IOException | InterruptedException e) {
            out.println("The reference page is not built (" + e.getMessage() + "): it needs Node.js and npm (Node "
                    + Node22.MAJOR + "+, or npm to fetch it); the API and the chat run without it.");
            return false;
        }
    }

    /**
     * The folder of the {@code node} the page builds with, put first on the build's PATH ({@link Node22#binFolder}):
     * null for the machine's own; also null, with a note, when no Node {@value Node22#MAJOR} can be had (the build then
     * tries the machine's Node, with EBADENGINE warnings).
     */
    Path nodeBin(PrintStream out) throws InterruptedException {
        try {
            return Node22.binFolder(directory, out);
        } catch (IOException e) {
            out.println("  The page needs Node " + Node22.MAJOR + "+ (" + e.getMessage() + "): building on the machine's Node, "
                    + "expect EBADENGINE warnings.");
            return null;
        }
    }
}
