package dev.tablewright.fakes.node;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * A Node project of the repository (its package.json and lock file) that a test runs tools from: installed with
 * {@code npm ci} when its node_modules are missing or older than the lock file. Missing Node or an unreachable
 * registry fails the calling test with the reason: a check that needs Node must not pass by not running (CI has it).
 */
public final class NodeProject {

    /** What a command printed, and how it ended. */
    public record Result(int exit, String stdout, String stderr) {
    }

    private final Path directory;
    private volatile boolean installed;

    public NodeProject(Path directory) {
        this.directory = directory;
    }

    public Path directory() {
        return directory;
    }

    /** Runs {@code command} in the project once it is installed; a command that does not finish in time fails. */
    public Result run(int timeoutSeconds, List<String> command) throws Exception {
        ensureInstalled();
        return exec(timeoutSeconds, command);
    }

    /**
     * The {@code node} command for a tool that needs Node {@value Node22#MAJOR} ({@link Node22}: the machine's, or npm's
     * in this project's {@code .node22}); none to be had fails the calling test.
     */
    public String node22() throws Exception {
        ensureInstalled();
        try {
            return acrossProcesses(() -> Node22.command(directory, System.out));
        } catch (IOException e) {
            throw new AssertionError("this check needs Node " + Node22.MAJOR + ": " + e.getMessage(), e);
        }
    }

    public synchronized void ensureInstalled() throws Exception {
        if (installed) {
            return;
        }
        for (String tool : new String[]{"node", "npm"}) {
            Result version;
            try {
                version = exec(30, List.of(tool, "--version"));
            } catch (IOException e) {
                throw new AssertionError(tool + " is not installed: this check needs Node.js 20+ and npm", e);
            }
            if (version.exit() != 0) {
                throw new AssertionError(tool + " --version failed:\n" + version.stderr());
            }
        }
        Path lock = directory.resolve("package-lock.json");
        Path marker = directory.resolve("node_modules/.package-lock.json");
        acrossProcesses(() -> {
            if (!Files.exists(marker) || Files.getLastModifiedTime(marker).compareTo(Files.getLastModifiedTime(lock)) < 0) {
                Result ci = exec(300, List.of("npm", "ci", "--no-audit", "--no-fund"));
                if (ci.exit() != 0) {
                    throw new AssertionError("npm ci failed in " + directory + " (is the npm registry reachable?):\n" + ci.stderr());
                }
            }
            return null;
        });
        installed = true;
    }

    /**
     * Runs {@code step} holding a file lock on the project: the suites run in two JVMs, and {@code npm ci} in one
     * (which first deletes node_modules) must not run under a tool the other one is running.
     */
    private <T> T acrossProcesses(Callable<T> step) throws Exception {
        Path lockFile = directory.resolve("target/install.lock");
        Files.createDirectories(lockFile.getParent());
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock ignored = channel.lock()) {
            return step.call();
        }
    }

    private Result exec(int timeoutSeconds, List<String> command) throws Exception {
        Path out = Files.createTempFile("node-out-", ".txt");
        Path err = Files.createTempFile("node-err-", ".txt");
        try {
            Process p = new ProcessBuilder(command).directory(directory.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish in " + timeoutSeconds + " s");
            }
            return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
