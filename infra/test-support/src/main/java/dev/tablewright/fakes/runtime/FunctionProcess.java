package dev.tablewright.fakes.runtime;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * Starts a function as a separate JVM the way Lambda's managed Java runtime ({@code java21}, {@code java25}) does, against a
 * {@link RuntimeApiEmulator}:
 * <ul>
 *   <li>the function's artifact becomes a task root (Lambda's {@code /var/task}): the jar in {@code lib/}, its
 *       top-level files (the wrapper script) unpacked, see {@link #stage};</li>
 *   <li>the JVM runs the Runtime Interface Client from Maven Central
 *       ({@code com.amazonaws.services.lambda.runtime.api.client.AWSLambda <handler>}) with the RIC on the
 *       class path and the task root as working directory and {@code LAMBDA_TASK_ROOT}, as the runtime's bootstrap does, with a heap
 *       sized from the function's memory;</li>
 *   <li>if the function sets {@code AWS_LAMBDA_EXEC_WRAPPER}, that script is run with the java command line as
 *       its arguments (a {@code /var/task/...} path is mapped to the task root);</li>
 *   <li>environment: {@code AWS_LAMBDA_RUNTIME_API}, {@code _HANDLER}, {@code AWS_LAMBDA_FUNCTION_NAME},
 *       {@code AWS_LAMBDA_FUNCTION_MEMORY_SIZE}, {@code LAMBDA_TASK_ROOT}, the template's variables, then the
 *       caller's overrides.</li>
 * </ul>
 * The JVM is the one running the harness, whatever the template's runtime (only the runtime's flags follow it). {@link #startedNanos()} is
 * taken just before the process is spawned, so {@code result.completedNanos() - startedNanos()} is a cold start.
 */
public final class FunctionProcess implements AutoCloseable {

    static final String RIC_MAIN = "com.amazonaws.services.lambda.runtime.api.client.AWSLambda";
    private static final int OUTPUT_LINES = 400;

    private final FunctionSpec spec;
    private final Process process;
    private final long startedNanos;
    /** The task root laid out for this process alone (none when the artifact is a folder), removed once it ends. */
    private final Path stagedRoot;
    private final Deque<String> output = new ArrayDeque<>();

    private FunctionProcess(FunctionSpec spec, Process process, long startedNanos, Path stagedRoot) {
        this.spec = spec;
        this.process = process;
        this.startedNanos = startedNanos;
        this.stagedRoot = stagedRoot;
        Thread.ofVirtual().start(() -> drain(process.getInputStream()));
    }

    /** Starts {@code spec}'s function against {@code emulator}; {@code environment} overrides the template's variables. */
    public static FunctionProcess start(FunctionSpec spec, RuntimeApiEmulator emulator, Map<String, String> environment)
            throws IOException {
        return start(spec, emulator, environment, List.of());
    }

    /**
     * As {@link #start(FunctionSpec, RuntimeApiEmulator, Map)}, with {@code extraJars} in the task root's
     * {@code lib/} (on the function's class path in Lambda too): test-only handlers next to the real code.
     * The harness rebuilds the task root (and so its {@code lib/}) on every start.
     */
    public static FunctionProcess start(FunctionSpec spec, RuntimeApiEmulator emulator, Map<String, String> environment,
                                        List<Path> extraJars) throws IOException {
        if (!spec.artifactExists()) {
            throw new IllegalStateException("no artifact for " + spec.logicalId() + ": " + spec.artifact()
                    + " (build it with: mvn -q -pl functions/" + spec.module() + " -am package -DskipTests)");
        }
        Path taskRoot;
        Path staged = null;
        if (Files.isDirectory(spec.artifact())) {
            if (!extraJars.isEmpty()) {
                throw new IllegalArgumentException("extra jars need a packaged artifact, not a directory");
            }
            taskRoot = spec.artifact().toAbsolutePath();
        } else {
            taskRoot = staged = stage(spec.artifact(), taskRootFor(spec), extraJars);
        }
        Map<String, String> env = new LinkedHashMap<>();
        env.put("AWS_LAMBDA_RUNTIME_API", emulator.address());
        env.put("_HANDLER", spec.handler());
        env.put("AWS_LAMBDA_FUNCTION_NAME", spec.logicalId());
        env.put("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST");
        env.put("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", Integer.toString(spec.memoryMb()));
        env.put("AWS_LAMBDA_LOG_GROUP_NAME", "/aws/lambda/" + spec.logicalId());
        env.put("AWS_EXECUTION_ENV", "AWS_Lambda_" + spec.runtime());
        env.put("AWS_REGION", "us-east-1");
        env.put("AWS_DEFAULT_REGION", "us-east-1");
        env.put("LAMBDA_TASK_ROOT", taskRoot.toString());
        env.put("LAMBDA_RUNTIME_DIR", runtimeLibraries().toString());
        env.put("TZ", ":UTC");
        env.put("LANG", "en_US.UTF-8");
        env.putAll(spec.environment());
        env.putAll(environment);

        List<String> command = new ArrayList<>();
        String wrapper = env.get("AWS_LAMBDA_EXEC_WRAPPER");
        if (wrapper != null && !wrapper.isBlank()) {
            Path script = wrapper.startsWith("/var/task/") ? taskRoot.resolve(wrapper.substring("/var/task/".length())) : Path.of(wrapper);
            // the Makefile marks it executable after unpacking; zip entries written by Maven carry no mode bits
            script.toFile().setExecutable(true, false);
            command.add(script.toString());
        }
        command.addAll(javaCommand(spec, taskRoot, env.get("AWS_LAMBDA_INITIALIZATION_TYPE")));

        // The RIC loads the handler from its working directory (user.dir), which is /var/task in Lambda.
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).directory(taskRoot.toFile());
        builder.environment().clear();
        builder.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        builder.environment().putAll(env);
        long started = System.nanoTime();
        Process process = builder.start();
        return new FunctionProcess(spec, process, started, staged);
    }

    /**
     * The java command line of Lambda's java bootstrap, with paths on this machine. From {@code java25} on, the runtime
     * stops tiered compilation at C1 unless the environment is initialized for SnapStart or provisioned concurrency,
     * where the JIT's work happens before any invocation (Lambda's "Customize Java runtime startup behavior");
     * {@code java21} leaves that to {@code JAVA_TOOL_OPTIONS}.
     *
     * @param initializationType the environment's {@code AWS_LAMBDA_INITIALIZATION_TYPE}; null: on-demand
     */
    static List<String> javaCommand(FunctionSpec spec, Path taskRoot, String initializationType) {
        long heapKb = spec.memoryMb() * 1024L * 85 / 100;
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        if (spec.runtimeVersion() >= 25 && !"snap-start".equals(initializationType)
                && !"provisioned-concurrency".equals(initializationType)) {
            command.add("-XX:+TieredCompilation");
            command.add("-XX:TieredStopAtLevel=1");
        }
        command.add("-XX:MaxHeapSize=" + heapKb + "k");
        command.add("-XX:MaxMetaspaceSize=" + Math.max(64 * 1024, heapKb / 10) + "k");
        command.add("-XX:+UseSerialGC");
        command.add("-Xshare:auto");
        command.add("-Djava.net.preferIPv4Stack=true");
        command.add("-classpath");
        command.add(runtimeLibraries() + "/*");
        command.add(RIC_MAIN);
        command.add(spec.handler());
        return command;
    }

    /**
     * Where the build put the Runtime Interface Client and its dependencies ({@code infra/test-support/target/lambda-runtime},
     * copied by the dependency plugin), Lambda's {@code /var/runtime/lib}.
     */
    public static Path runtimeLibraries() {
        Path libs = fakesDirectory().resolve("target").resolve("lambda-runtime");
        if (!Files.isDirectory(libs)) {
            throw new IllegalStateException(libs + " is missing: build the test support (mvn -pl infra/test-support -am process-resources)");
        }
        return libs;
    }

    private static Path fakesDirectory() {
        Path root = dev.tablewright.fakes.template.SamTemplate.locate().getParent();
        return root.resolve("infra").resolve("test-support");
    }

    /**
     * A task root of its own for each start: an earlier process of the same function may still be going down, and a
     * test JVM next to this one (the suites run in two) may start the same function at the same moment.
     */
    private static Path taskRootFor(FunctionSpec spec) throws IOException {
        Path tasks = fakesDirectory().resolve("target").resolve("lambda-task");
        Files.createDirectories(tasks);
        return Files.createTempDirectory(tasks, spec.module() + "-");
    }

    /**
     * Lays out a task root for {@code jar}: the jar itself in {@code lib/} (a layout Lambda supports: the runtime
     * puts {@code /var/task/lib/*.jar} on the class path) and its top-level files (the wrapper script) unpacked.
     * Unpacking every class instead, as {@code sam build} does, costs tens of seconds for a large jar on a slow disk
     * and changes nothing the tests look at. {@code lib/} is rebuilt on every start.
     */
    static Path stage(Path jar, Path taskRoot, List<Path> extraJars) throws IOException {
        deleteTree(taskRoot);
        Path lib = taskRoot.resolve("lib");
        Files.createDirectories(lib);
        Files.createSymbolicLink(lib.resolve("function.jar"), jar.toAbsolutePath());
        for (Path extra : extraJars) {
            Files.copy(extra, lib.resolve(extra.getFileName()));
        }
        try (ZipInputStream zip = new ZipInputStream(Files.newInputStream(jar))) {
            for (ZipEntry entry; (entry = zip.getNextEntry()) != null; ) {
                String name = entry.getName();
                if (entry.isDirectory() || name.contains("/") || name.endsWith(".class")) {
                    continue;
                }
                Files.copy(zip, taskRoot.resolve(name));
            }
        }
        return taskRoot;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    private void drain(InputStream stream) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
            for (String line; (line = reader.readLine()) != null; ) {
                synchronized (output) {
                    output.addLast(line);
                    if (output.size() > OUTPUT_LINES) {
                        output.removeFirst();
                    }
                }
            }
        } catch (IOException ignored) {
            // the process ended
        }
    }

    public FunctionSpec spec() {
        return spec;
    }

    /** {@link System#nanoTime()} just before the JVM was spawned. */
    public long startedNanos() {
        return startedNanos;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public long pid() {
        return process.pid();
    }

    /**
     * CPU time the function's process has used so far (user + system), when the OS reports it: on a busy machine a
     * steadier measure of start-up work than wall-clock time.
     */
    public java.util.Optional<java.time.Duration> cpuTime() {
        return process.toHandle().info().totalCpuDuration();
    }

    /**
     * Waits for the end of an invocation this process serves; when none comes in time, the {@link TimeoutException}
     * carries what the function printed (why it did not answer).
     */
    public InvocationResult await(Invocation invocation, java.time.Duration timeout) throws InterruptedException, TimeoutException {
        try {
            return invocation.await(timeout);
        } catch (TimeoutException e) {
            TimeoutException explained = new TimeoutException("no answer within " + timeout.toSeconds() + " s; function output:\n" + output());
            explained.initCause(e);
            throw explained;
        }
    }

    /** The last lines the function printed (stdout and stderr), for failure messages. */
    public String output() {
        synchronized (output) {
            return String.join("\n", output);
        }
    }

    /**
     * Ends the process at once (SIGKILL), as when Lambda's sandbox is torn down mid-invocation or the host dies: no
     * shutdown hook, no finally block, nothing flushed. Returns when it is gone.
     */
    public void kill() throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("process " + process.pid() + " outlived SIGKILL");
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        if (stagedRoot != null && !process.isAlive()) {
            try {
                deleteTree(stagedRoot);
            } catch (IOException | UncheckedIOException e) {
                // a leftover under target/ costs only disk; the next start uses a new folder anyway
            }
        }
    }
}
