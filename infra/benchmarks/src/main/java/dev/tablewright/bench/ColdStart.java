package dev.tablewright.bench;

import dev.tablewright.fakes.runtime.FunctionProcess;
import dev.tablewright.fakes.runtime.FunctionSpec;
import dev.tablewright.fakes.runtime.Invocation;
import dev.tablewright.fakes.runtime.InvocationResult;
import dev.tablewright.fakes.runtime.RuntimeApiEmulator;
import dev.tablewright.fakes.template.SamTemplate;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The cold start of a function, measured the way Lambda pays it: a fresh JVM running the Runtime Interface
 * Client against the Runtime API emulator, from process spawn to the first answer read back (the init phase,
 * handler construction included, plus the first invocation). Several runs, median reported; the second
 * invocation of each process is reported as the first warm one.
 *
 * <pre>infra/bin/cold-starts function [FunctionLogicalId] [--runs N] [--event file.json] [--baseline] [--artifact other.jar]</pre>
 *
 * {@code --baseline} measures an empty handler ({@link BaselineHandler}) with the function's settings instead: the
 * floor that the JVM and the Runtime Interface Client cost on this machine. {@code --artifact} runs another build
 * of the function's jar with the same settings (before/after comparisons).
 *
 * A measurement, not a test: figures go to docs/performance.md with the command that produced them.
 */
public final class ColdStart {

    public record Run(double coldMillis, double initMillis, double secondMillis) {
    }

    public static void main(String[] args) throws Exception {
        String logicalId = "ApplyColumnChangeFunction";
        int runs = 7;
        Path event = null;
        boolean baseline = false;
        Path artifact = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--event" -> event = Path.of(args[++i]);
                case "--baseline" -> baseline = true;
                case "--artifact" -> artifact = Path.of(args[++i]);
                default -> logicalId = args[i];
            }
        }
        Path root = SamTemplate.locate().getParent();
        if (event == null) {
            event = root.resolve("infra/events").resolve(defaultEvent(logicalId));
        }
        byte[] body = Files.readAllBytes(event);
        FunctionSpec spec = FunctionSpec.fromTemplate(logicalId);
        if (artifact != null) {
            // Another build of the same function (e.g. before and after a change), same settings.
            spec = new FunctionSpec(spec.logicalId(), spec.handler(), spec.runtime(), spec.memoryMb(), spec.timeoutSeconds(),
                    spec.environment(), spec.module() + "-" + artifact.getFileName().toString().replace(".jar", ""), artifact.toAbsolutePath());
        }
        if (baseline) {
            // Same memory, runtime and environment (JAVA_TOOL_OPTIONS) as the function, but an empty handler.
            spec = new FunctionSpec("BaselineFunction", BaselineHandler.class.getName() + "::handleRequest", spec.runtime(),
                    spec.memoryMb(), spec.timeoutSeconds(), spec.environment(), "benchmarks", root.resolve("infra/benchmarks/target/classes"));
        }

        System.out.printf(Locale.ROOT, "%s (%s, %d MB) with %s, %d runs%n", spec.logicalId(), spec.handler(), spec.memoryMb(),
                root.relativize(event.toAbsolutePath()), runs);
        measure(spec, body, Map.of()); // unpacks the jar once and warms the OS file cache; not counted
        List<Run> results = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            Run run = measure(spec, body, Map.of());
            results.add(run);
            System.out.printf(Locale.ROOT, "  run %d: cold %.0f ms (init %.0f ms), second invocation %.1f ms%n",
                    i + 1, run.coldMillis(), run.initMillis(), run.secondMillis());
        }
        System.out.printf(Locale.ROOT, "median cold start %.0f ms (min %.0f, max %.0f); median init %.0f ms; median second invocation %.1f ms%n",
                median(results.stream().mapToDouble(Run::coldMillis).toArray()),
                results.stream().mapToDouble(Run::coldMillis).min().orElse(0),
                results.stream().mapToDouble(Run::coldMillis).max().orElse(0),
                median(results.stream().mapToDouble(Run::initMillis).toArray()),
                median(results.stream().mapToDouble(Run::secondMillis).toArray()));
        if (spec.artifactExists() && Files.isRegularFile(spec.artifact())) {
            System.out.printf(Locale.ROOT, "artifact %s: %.2f MB%n", root.relativize(spec.artifact().toAbsolutePath()),
                    Files.size(spec.artifact()) / (1024.0 * 1024.0));
        }
    }

    /** One fresh process: spawn → first answer (cold), spawn → first poll (init), then one more invocation (warm). */
    public static Run measure(FunctionSpec spec, byte[] event, Map<String, String> environment) throws Exception {
        try (RuntimeApiEmulator emulator = RuntimeApiEmulator.start(spec.logicalId());
             FunctionProcess process = FunctionProcess.start(spec, emulator, environment)) {
            InvocationResult first = await(emulator.invoke(event, Duration.ofSeconds(spec.timeoutSeconds())), process);
            long firstPoll = emulator.firstPoll().getNow(first.completedNanos());
            long secondStart = System.nanoTime();
            InvocationResult second = await(emulator.invoke(event, Duration.ofSeconds(spec.timeoutSeconds())), process);
            return new Run((first.completedNanos() - process.startedNanos()) / 1e6,
                    (firstPoll - process.startedNanos()) / 1e6, (second.completedNanos() - secondStart) / 1e6);
        }
    }

    private static InvocationResult await(Invocation invocation, FunctionProcess process) throws Exception {
        try {
            InvocationResult result = invocation.await(Duration.ofSeconds(60));
            if (!result.succeeded()) {
                throw new IllegalStateException("the function failed: " + result.errorType() + " " + result.errorBody()
                        + "\n" + process.output());
            }
            return result;
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("no answer within 60 s; function output:\n" + process.output(), e);
        }
    }

    /** The template's function, its jar built (else stop and say how), announced with its jar size and the JVM. */
    static FunctionSpec builtFunction(String logicalId) throws java.io.IOException {
        FunctionSpec spec = FunctionSpec.fromTemplate(logicalId);
        if (!spec.artifactExists()) {
            throw new IllegalStateException("build first: mvn -B -q package -DskipTests (" + spec.artifact() + ")");
        }
        System.out.printf(Locale.ROOT, "%s (%s, %d MB), jar %.1f MB; java %s%n", logicalId, spec.handler(), spec.memoryMb(),
                Files.size(spec.artifact()) / (1024.0 * 1024.0), System.getProperty("java.version"));
        return spec;
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n == 0 ? 0 : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** ApplyColumnChangeFunction → apply-column-change.json */
    static String defaultEvent(String logicalId) {
        String base = logicalId.endsWith("Function") ? logicalId.substring(0, logicalId.length() - "Function".length()) : logicalId;
        return base.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT) + ".json";
    }
}
