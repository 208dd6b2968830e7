package dev.tablewright.localstack.web;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The reference page's project ({@code infra/web}: React, useChat, Vite) and its build. {@code infra/bin/local-stack}
 * builds it with the machine's node and npm when its {@code dist} is missing or older than its sources; without
 * npm the stack still starts, and says the page is not built.
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
     * file, then {@code npm run build}; their output goes to {@code out}. Returns whether the page is built; a
     * failure is reported on {@code out}, not thrown (the API works without the page).
     */
    public boolean buildIfNeeded(PrintStream out) {
        try {
            if (isCurrent()) {
                return true;
            }
            out.println("Building the reference page (" + directory + ": npm ci, npm run build) ...");
            Path marker = directory.resolve("node_modules/.package-lock.json");
            if (!Files.exists(marker) || Files.getLastModifiedTime(marker).compareTo(Files.getLastModifiedTime(directory.resolve("package-lock.json"))) < 0) {
                run(out, List.of("npm", "ci", "--no-audit", "--no-fund"));
            }
            run(out, List.of("npm", "run", "build"));
            return true;
        } catch (IOException | InterruptedException e) {
            out.println("The reference page is not built (" + e.getMessage() + "): it needs Node.js 20+ and npm; "
                    + "the API and the chat run without it.");
            return false;
        }
    }

    private void run(PrintStream out, List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            lines.lines().forEach(line -> out.println("  " + line));
        }
        if (!process.waitFor(10, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IOException(String.join(" ", command) + " did not finish in 10 minutes");
        }
        if (process.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed with exit " + process.exitValue());
        }
    }
}
