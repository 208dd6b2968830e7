package dev.tablewright.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code infra/bin/eval}: reads the tasks, starts the deployment each group of them needs (one data source, or two for
 * the tasks that name a {@code database}), runs them ({@link Evaluation}) with a progress line per run, writes
 * {@code report.json} and {@code report.md} into the output folder, prints the summary table, and exits 0, or 1 when
 * the overall pass@1 is below {@code --min-pass-rate} (2: the command line or the task file is wrong; 3: no deployment
 * could start). {@code --compare A B} prints what changed between two reports instead.
 */
public final class EvalCommand {

    public static final int OK = 0;
    public static final int BELOW_MIN_PASS_RATE = 1;
    public static final int USAGE = 2;
    public static final int NOT_STARTED = 3;

    /** How long one chat request may take (a turn of a slow model with many steps). */
    static final Duration TURN_TIMEOUT = Duration.ofMinutes(10);

    /** Where the tasks of a group run: started for it and stopped after it, unless a test hands in its own. */
    public interface Deployments {
        EvalStack open(EvalStack.DataSources sources) throws Exception;

        void done(EvalStack stack);
    }

    private final PrintStream out;
    private final PrintStream err;
    private final Path callerDir;

    /** @param callerDir what relative paths on the command line are relative to */
    public EvalCommand(PrintStream out, PrintStream err, Path callerDir) {
        this.out = out;
        this.err = err;
        this.callerDir = callerDir;
    }

    public static void main(String[] args) {
        // infra/bin/eval runs from the project root (the stack finds template.yaml there) and says where it was called
        Path callerDir = Path.of(System.getProperty("tablewright.eval.dir", ""));
        System.exit(new EvalCommand(System.out, System.err, callerDir).run(args, System.getenv(), null));
    }

    /**
     * @param deployments null: each group's deployment is started from {@code environment} and stopped after it
     */
    public int run(String[] args, Map<String, String> environment, Deployments deployments) {
        EvalOptions options;
        try {
            options = EvalOptions.parse(callerDir, args);
        } catch (EvalOptions.Usage e) {
            err.println(e.getMessage());
            return USAGE;
        }
        if (options.help()) {
            out.print(EvalOptions.USAGE);
            return OK;
        }
        if (!options.compare().isEmpty()) {
            return compare(options.compare().get(0), options.compare().get(1));
        }
        List<EvalTask> all;
        try {
            all = options.tasks() == null ? TaskFile.corpus() : TaskFile.read(options.tasks());
        } catch (TaskFile.Invalid e) {
            err.println(e.getMessage());
            return USAGE;
        } catch (IOException e) {
            err.println("cannot read " + options.tasks() + ": " + e.getMessage());
            return USAGE;
        }
        List<EvalTask> selected = select(all, options);
        if (selected == null) {
            return USAGE;
        }
        String source = options.tasks() == null ? "the bundled corpus" : options.tasks().toString();
        try {
            Files.createDirectories(options.out());
        } catch (IOException e) {
            err.println("cannot create " + options.out() + ": " + e.getMessage());
            return USAGE;
        }
        if (deployments != null) {
            return evaluate(options, selected, source, deployments);
        }
        try (FromEnvironment started = new FromEnvironment(environment, options.out())) {
            return evaluate(options, selected, source, started);
        }
    }

    /** The tasks the options name, in file order; null (after saying why) when --only names a task the file lacks. */
    private List<EvalTask> select(List<EvalTask> all, EvalOptions options) {
        Set<String> unknown = new LinkedHashSet<>(options.only());
        all.forEach(t -> unknown.remove(t.id()));
        if (!unknown.isEmpty()) {
            err.println("--only names tasks the file does not have: " + String.join(", ", unknown));
            return null;
        }
        List<EvalTask> out = new ArrayList<>();
        for (EvalTask t : all) {
            if ((options.only().isEmpty() || options.only().contains(t.id())) && (options.tag() == null || t.tagged(options.tag()))) {
                out.add(t);
            }
        }
        if (out.isEmpty()) {
            err.println("no task matches the selection");
            return null;
        }
        return out;
    }

    private int evaluate(EvalOptions options, List<EvalTask> selected, String source, Deployments stacks) {
        String startedAt = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        String batch = UUID.randomUUID().toString().substring(0, 8);
        boolean explicit = !options.only().isEmpty() || options.tag() != null;
        List<EvalTask> tasks = new ArrayList<>(selected);
        List<RunRecord> records = new ArrayList<>();
        EvalStack.ModelInfo model = null;
        AtomicInteger done = new AtomicInteger();
        for (EvalStack.DataSources sources : EvalStack.DataSources.values()) {
            List<EvalTask> group = tasks.stream().filter(t -> (t.database() == null) == (sources == EvalStack.DataSources.ONE)).toList();
            if (group.isEmpty()) {
                continue;
            }
            EvalStack stack;
            try {
                stack = stacks.open(sources);
            } catch (Exception | Error e) {
                String why = "the deployment with " + (sources == EvalStack.DataSources.ONE ? "one data source" : "two data sources")
                        + " could not start: " + e.getMessage();
                if (sources == EvalStack.DataSources.ONE || model == null) {
                    err.println(why);
                    return NOT_STARTED;
                }
                err.println(why + " (its tasks fail)");
                for (EvalTask t : group) {
                    for (int run = 1; run <= options.runs(); run++) {
                        RunRecord failed = RunRecord.notRun(t.id(), run, why);
                        records.add(failed);
                        progress(failed, done.incrementAndGet(), tasks.size() * options.runs(), options.runs());
                    }
                }
                continue;
            }
            try {
                if (model == null) {
                    model = stack.model();
                    out.println("model: " + model.label());
                    if (stack.offlineDemo() && !explicit) {
                        tasks.removeIf(t -> !t.tagged(EvalTask.DEMO));
                        group = group.stream().filter(t -> t.tagged(EvalTask.DEMO)).toList();
                        if (tasks.isEmpty()) {
                            err.println("No model is configured, and no task is tagged " + EvalTask.DEMO + " for the offline demo "
                                    + "model: set OPENAI_API_KEY (or MODEL_PROVIDER=bedrock), or choose tasks with --only or --tag.");
                            return USAGE;
                        }
                        out.println("The offline demo model knows a few phrasings only: running the " + tasks.size()
                                + " tasks tagged " + EvalTask.DEMO + " (--only or --tag choose others).");
                    }
                    out.println(tasks.size() + " task" + (tasks.size() == 1 ? "" : "s") + " × " + options.runs() + " run"
                            + (options.runs() == 1 ? "" : "s") + ", " + options.concurrency() + " at a time");
                }
                int total = tasks.size() * options.runs();
                records.addAll(Evaluation.run(stack, group, options.runs(), options.concurrency(), batch,
                        r -> progress(r, done.incrementAndGet(), total, options.runs())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                err.println("interrupted");
                return NOT_STARTED;
            } finally {
                stacks.done(stack);
            }
        }
        String finishedAt = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        return finish(Report.of(startedAt, finishedAt, model, source, options.runs(), options.price(), tasks, records), options);
    }

    /** Writes the report and prints its summary; the exit code. */
    private int finish(Report report, EvalOptions options) {
        Path json = options.out().resolve("report.json");
        Path md = options.out().resolve("report.md");
        try {
            Files.writeString(json, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(ReportJson.write(report)) + "\n");
            Files.writeString(md, ReportMarkdown.markdown(report));
        } catch (IOException e) {
            err.println("cannot write the report into " + options.out() + ": " + e.getMessage());
            return USAGE;
        }
        out.println();
        out.print(ReportMarkdown.summary(report));
        out.println("report: " + json + " (and " + md.getFileName() + " beside it)");
        if (options.minPassRate() != null && report.overall().passAt1() < options.minPassRate()) {
            out.println(String.format(Locale.ROOT, "pass@1 %.2f is below --min-pass-rate %.2f", report.overall().passAt1(),
                    options.minPassRate()));
            return BELOW_MIN_PASS_RATE;
        }
        return OK;
    }

    private void progress(RunRecord r, int n, int total, int runs) {
        String count = String.valueOf(total);
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "[%" + count.length() + "d/%s] %s", n, count, r.taskId()));
        if (runs > 1) {
            line.append(" run ").append(r.run()).append('/').append(runs);
        }
        line.append(r.passed() ? "  PASS" : "  FAIL").append(String.format(Locale.ROOT, "  %.1f s  %d step%s  %d tool call%s",
                r.seconds(), r.modelSteps(), r.modelSteps() == 1 ? "" : "s", r.toolCalls(), r.toolCalls() == 1 ? "" : "s"));
        if (r.failedToolCalls() > 0) {
            line.append(" (").append(r.failedToolCalls()).append(" failed)");
        }
        line.append("  ").append(ReportMarkdown.tokens(r.inputTokens())).append('/').append(ReportMarkdown.tokens(r.outputTokens())).append(" tokens");
        if (!r.passed()) {
            line.append("\n      ").append(r.reason());
        }
        out.println(line);
    }

    private int compare(Path a, Path b) {
        JsonNode first;
        JsonNode second;
        try {
            first = Json.parse(Files.readString(a));
            second = Json.parse(Files.readString(b));
        } catch (IOException | RuntimeException e) {
            err.println("cannot read the reports: " + e.getMessage());
            return USAGE;
        }
        try {
            ReportComparison.compare(first, second).forEach(out::println);
        } catch (ReportComparison.NotAReport e) {
            err.println(e.getMessage());
            return USAGE;
        }
        return OK;
    }

    /**
     * Deployments started from the environment as {@code infra/bin/local-stack} would start them, their functions' logs
     * in {@code stack.log} of the output folder rather than among the progress lines (until it is closed).
     */
    static final class FromEnvironment implements Deployments, AutoCloseable {
        private final Map<String, String> environment;
        private final Path outDir;
        private PrintStream log;

        FromEnvironment(Map<String, String> environment, Path outDir) {
            this.environment = environment;
            this.outDir = outDir;
        }

        @Override
        public EvalStack open(EvalStack.DataSources sources) throws Exception {
            if (log == null) {
                log = new PrintStream(Files.newOutputStream(outDir.resolve("stack.log")), true, StandardCharsets.UTF_8);
                StructuredLog.redirect(log);
            }
            return EvalStack.start(environment, sources, log, TURN_TIMEOUT);
        }

        @Override
        public void done(EvalStack stack) {
            stack.close();
        }

        @Override
        public void close() {
            if (log != null) {
                StructuredLog.redirect(System.out);
                log.close();
            }
        }
    }
}
