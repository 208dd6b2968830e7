package dev.tablewright.eval;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The report for people: {@code report.md} beside {@code report.json}, and the summary table the command prints at
 * the end. Both show the same figures as the JSON, rounded for reading.
 */
public final class ReportMarkdown {

    private ReportMarkdown() {
    }

    public static String markdown(Report report) {
        Report.Overall o = report.overall();
        int k = report.runsPerTask();
        StringBuilder md = new StringBuilder();
        md.append("# Evaluation: ").append(report.model().label()).append("\n\n");
        md.append(report.startedAt()).append(" · ").append(report.tasksSource()).append(" · ")
                .append(o.tasks()).append(" tasks × ").append(k).append(k == 1 ? " run" : " runs").append("\n\n");
        md.append("| | |\n|---|---|\n");
        md.append("| pass@1 | ").append(rate(o.passAt1())).append(" (").append(o.passedRuns()).append(" of ").append(o.runs()).append(" runs) |\n");
        md.append("| pass^").append(k).append(" | ").append(rate(o.passHatK())).append(" |\n");
        md.append("| tokens per task | ").append(tokens(o.inputTokensPerTask())).append(" in, ").append(tokens(o.outputTokensPerTask())).append(" out |\n");
        md.append("| tokens, all runs | ").append(tokens(o.inputTokens())).append(" in, ").append(tokens(o.outputTokens())).append(" out |\n");
        md.append("| time per task | median ").append(seconds(o.medianSeconds())).append(", p90 ").append(seconds(o.p90Seconds())).append(" |\n");
        if (o.cost() != null) {
            md.append("| cost | ").append(dollars(o.cost())).append(" for these runs, ").append(dollars(o.costPerTask()))
                    .append(" per task, at ").append(dollars(report.price().inputPerMillion())).append(" / ")
                    .append(dollars(report.price().outputPerMillion())).append(" per million input / output tokens |\n");
        }
        md.append("\n## Tasks\n\n| task | pass@1 | pass^").append(k).append(" | tokens in / out | median time | failed runs: why |\n")
                .append("|---|---|---|---|---|---|\n");
        for (Report.TaskResult t : report.tasks()) {
            List<String> why = new ArrayList<>();
            for (RunRecord r : t.runs()) {
                if (!r.passed()) {
                    why.add("run " + r.run() + ": " + r.reason().replace("|", "\\|"));
                }
            }
            md.append("| ").append(t.id()).append(" | ").append(rate(t.passAt1())).append(" | ").append(t.passHatK() ? "yes" : "no")
                    .append(" | ").append(tokens(t.inputTokens())).append(" / ").append(tokens(t.outputTokens()))
                    .append(" | ").append(seconds(t.medianSeconds())).append(" | ").append(String.join("<br>", why)).append(" |\n");
        }
        return md.toString();
    }

    /** The table printed at the end of a run: one line per task, then the overall figures. */
    public static String summary(Report report) {
        int width = Math.max(4, report.tasks().stream().mapToInt(t -> t.id().length()).max().orElse(4));
        int k = report.runsPerTask();
        StringBuilder out = new StringBuilder();
        String header = String.format(Locale.ROOT, "%-" + width + "s  %6s  %6s  %15s  %8s", "task", "pass@1", "pass^" + k,
                "tokens in/out", "median");
        out.append(header).append("\n").append("-".repeat(header.length())).append("\n");
        for (Report.TaskResult t : report.tasks()) {
            out.append(String.format(Locale.ROOT, "%-" + width + "s  %6s  %6s  %15s  %8s%n", t.id(), rate(t.passAt1()),
                    t.passHatK() ? "yes" : "no", tokens(t.inputTokens()) + "/" + tokens(t.outputTokens()), seconds(t.medianSeconds())));
        }
        Report.Overall o = report.overall();
        out.append("-".repeat(header.length())).append("\n");
        out.append(String.format(Locale.ROOT, "pass@1 %s (%d of %d runs)   pass^%d %s   tokens per task %s in, %s out   "
                        + "time per task median %s, p90 %s%n", rate(o.passAt1()), o.passedRuns(), o.runs(), k, rate(o.passHatK()),
                tokens(o.inputTokensPerTask()), tokens(o.outputTokensPerTask()), seconds(o.medianSeconds()), seconds(o.p90Seconds())));
        if (o.cost() != null) {
            out.append(String.format(Locale.ROOT, "cost %s for these runs, %s per task%n", dollars(o.cost()), dollars(o.costPerTask())));
        }
        return out.toString();
    }

    static String rate(double r) {
        return String.format(Locale.ROOT, "%.2f", r);
    }

    static String tokens(double n) {
        return n >= 10_000 ? String.format(Locale.ROOT, "%.1fk", n / 1000) : String.format(Locale.ROOT, "%.0f", n);
    }

    static String seconds(double s) {
        return String.format(Locale.ROOT, "%.1f s", s);
    }

    static String dollars(double d) {
        return d >= 1 ? String.format(Locale.ROOT, "$%.2f", d) : String.format(Locale.ROOT, "$%.4f", d);
    }
}
