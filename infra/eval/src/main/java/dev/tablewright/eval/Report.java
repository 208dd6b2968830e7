package dev.tablewright.eval;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one harness run found: every run of every task, and what follows from them. Per task, pass@1 is the share of
 * its runs that passed and pass^k whether all k passed; overall, pass@1 and pass^k are their means over the tasks,
 * tokens per task the mean over runs (one run is one attempt at one task), the time per task the median and the 90th
 * percentile (nearest rank) of the runs' wall times, and the cost the tokens at {@code price}. Written by
 * {@link ReportJson} and {@link ReportMarkdown}.
 */
public record Report(String startedAt, String finishedAt, EvalStack.ModelInfo model, String tasksSource, int runsPerTask,
                     Price price, List<TaskResult> tasks, Overall overall) {

    public Report {
        tasks = List.copyOf(tasks);
    }

    /** Dollars per million tokens, as the model's price list gives them. */
    public record Price(double inputPerMillion, double outputPerMillion) {
        public double of(long inputTokens, long outputTokens) {
            return (inputTokens * inputPerMillion + outputTokens * outputPerMillion) / 1_000_000d;
        }
    }

    public record TaskResult(String id, Set<String> tags, List<RunRecord> runs, double passAt1, boolean passHatK,
                             double inputTokens, double outputTokens, double medianSeconds) {
        public TaskResult {
            tags = Set.copyOf(tags);
            runs = List.copyOf(runs);
        }
    }

    /**
     * @param cost        the whole harness run's tokens at the price; null without a price
     * @param costPerTask one attempt at one task (cost over runs); null without a price
     */
    public record Overall(int tasks, int runs, int passedRuns, double passAt1, double passHatK, long inputTokens,
                          long outputTokens, double inputTokensPerTask, double outputTokensPerTask, double medianSeconds,
                          double p90Seconds, Double cost, Double costPerTask) {
    }

    /** The report of {@code records} (any order) for {@code tasks} (in the report's order). */
    public static Report of(String startedAt, String finishedAt, EvalStack.ModelInfo model, String tasksSource, int runsPerTask,
                            Price price, List<EvalTask> tasks, List<RunRecord> records) {
        Map<String, List<RunRecord>> byTask = new LinkedHashMap<>();
        tasks.forEach(t -> byTask.put(t.id(), new ArrayList<>()));
        records.forEach(r -> byTask.computeIfAbsent(r.taskId(), k -> new ArrayList<>()).add(r));
        List<TaskResult> results = new ArrayList<>();
        for (EvalTask task : tasks) {
            List<RunRecord> runs = byTask.get(task.id());
            runs.sort(java.util.Comparator.comparingInt(RunRecord::run));
            if (runs.isEmpty()) {
                continue;
            }
            long passed = runs.stream().filter(RunRecord::passed).count();
            results.add(new TaskResult(task.id(), task.tags(), runs, (double) passed / runs.size(), passed == runs.size(),
                    runs.stream().mapToLong(RunRecord::inputTokens).average().orElse(0),
                    runs.stream().mapToLong(RunRecord::outputTokens).average().orElse(0),
                    median(runs.stream().map(RunRecord::seconds).toList())));
        }
        List<RunRecord> all = results.stream().flatMap(t -> t.runs().stream()).toList();
        long input = all.stream().mapToLong(RunRecord::inputTokens).sum();
        long output = all.stream().mapToLong(RunRecord::outputTokens).sum();
        List<Double> seconds = all.stream().map(RunRecord::seconds).toList();
        Double cost = price == null ? null : price.of(input, output);
        Overall overall = new Overall(results.size(), all.size(), (int) all.stream().filter(RunRecord::passed).count(),
                results.stream().mapToDouble(TaskResult::passAt1).average().orElse(0),
                results.stream().mapToDouble(t -> t.passHatK() ? 1 : 0).average().orElse(0),
                input, output, all.isEmpty() ? 0 : (double) input / all.size(), all.isEmpty() ? 0 : (double) output / all.size(),
                median(seconds), percentile(seconds, 0.9), cost, cost == null || all.isEmpty() ? null : cost / all.size());
        return new Report(startedAt, finishedAt, model, tasksSource, runsPerTask, price, results, overall);
    }

    static double median(List<Double> values) {
        if (values.isEmpty()) {
            return 0;
        }
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** The nearest-rank percentile: the smallest value with at least {@code p} of the values at or below it. */
    static double percentile(List<Double> values, double p) {
        if (values.isEmpty()) {
            return 0;
        }
        List<Double> sorted = values.stream().sorted().toList();
        int rank = (int) Math.ceil(p * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }
}
