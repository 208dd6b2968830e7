package dev.tablewright.checks.template;

import dev.tablewright.fakes.template.SamTemplate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What {@code sam build} does with this repository's template, without the SAM CLI: for each function (all have
 * {@code BuildMethod: makefile}, and samconfig.toml sets {@code build_in_source}), {@code make build-<Id>} in the
 * project folder with {@code ARTIFACTS_DIR=.aws-sam/build/<Id>}, one after the other, as SAM does without
 * {@code --parallel}. Prints the time and the size of {@code .aws-sam/build}.
 *
 * <pre>infra/bin/sam-build [--root DIR] [Id ...]</pre>
 */
public final class SamBuildRehearsal {

    /** One {@code make build-<Id>}: its exit code and everything it printed. */
    public record MakeRun(String functionId, int exit, String output, long millis) {
    }

    /** Bytes and files under a folder; a hard-linked file is counted once, as {@code du} counts it. */
    public record Size(long bytes, int files) {
        public double megabytes() {
            return bytes / 1_048_576.0;
        }
    }

    private final Path root;
    private final String maven;

    public SamBuildRehearsal(Path root, String maven) {
        this.root = root;
        this.maven = maven;
    }

    public Path artifacts(String functionId) {
        return root.resolve(".aws-sam/build").resolve(functionId);
    }

    public MakeRun build(String functionId) throws IOException, InterruptedException {
        return make(functionId);
    }

    /**
     * What {@code make build-<Id>} would run, without running it ({@code make -n}: the recipes are printed; make still
     * runs the recursive make that decides whether the jars are stale, in the same dry-run mode, so a stale stamp
     * prints the Maven command and a current one does not).
     */
    public MakeRun plan(String functionId) throws IOException, InterruptedException {
        return make(functionId, "-n");
    }

    private MakeRun make(String functionId, String... flags) throws IOException, InterruptedException {
        long start = System.nanoTime();
        List<String> command = new ArrayList<>(List.of("make"));
        command.addAll(List.of(flags));
        command.addAll(List.of("build-" + functionId, "ARTIFACTS_DIR=" + artifacts(functionId), "MVN=" + maven));
        ProcessBuilder pb = new ProcessBuilder(command)
                .directory(root.toFile())
                .redirectErrorStream(true);
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(15, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IOException("make build-" + functionId + " did not finish in 15 minutes");
        }
        return new MakeRun(functionId, p.exitValue(), output, (System.nanoTime() - start) / 1_000_000);
    }

    public static Size size(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            return new Size(0, 0);
        }
        Set<Object> seen = new HashSet<>();
        long bytes = 0;
        int files = 0;
        try (Stream<Path> all = Files.walk(folder)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                if (!a.isRegularFile()) {
                    continue;
                }
                files++;
                Object key = a.fileKey() == null ? p : a.fileKey();
                if (seen.add(key)) {
                    bytes += a.size();
                }
            }
        }
        return new Size(bytes, files);
    }

    public static void main(String[] args) throws Exception {
        Path root = SamTemplate.locate().getParent();
        List<String> only = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--root")) {
                root = Path.of(args[++i]).toAbsolutePath();
            } else {
                only.add(args[i]);
            }
        }
        SamTemplate template = SamTemplate.load(root.resolve("template.yaml"));
        Map<String, Map<String, Object>> functions = template.resourcesOfType("AWS::Serverless::Function");
        List<String> ids = only.isEmpty() ? List.copyOf(functions.keySet()) : only;
        SamBuildRehearsal sam = new SamBuildRehearsal(root, System.getenv().getOrDefault("MVN", "mvn"));
        long start = System.nanoTime();
        for (String id : ids) {
            MakeRun run = sam.build(id);
            System.out.printf("%-34s %6d ms%n", id, run.millis());
            if (run.exit() != 0) {
                System.out.println(run.output());
                System.exit(1);
            }
        }
        long total = (System.nanoTime() - start) / 1_000_000;
        Size size = size(root.resolve(".aws-sam/build"));
        System.out.printf("%d functions built in %.1f s; .aws-sam/build: %.1f MB on disk in %d files%n",
                ids.size(), total / 1000.0, size.megabytes(), size.files());
    }
}
