package dev.tablewright.eval;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What follows from the runs (pass@1, pass^k, tokens, times, cost), and --compare of two reports. */
class ReportTest {

    @TempDir
    Path dir;

    static final EvalStack.ModelInfo MODEL = new EvalStack.ModelInfo("live", "openai", "m", "m");

    static EvalTask task(String id) {
        return new EvalTask(id, List.of("x"), new EvalTask.Refusal(), null, Set.of());
    }

    static RunRecord run(String task, int run, boolean passed, long in, long out, double seconds) {
        return new RunRecord(task, run, passed, passed ? "ok" : "rows differ: 3 missing", 2, 1, 0, in, out, seconds,
                "conv", null, null, List.of(), List.of());
    }

    static Report report(List<EvalTask> tasks, List<RunRecord> runs, int k, Report.Price price) {
        return Report.of("2025-06-01T00:00:00Z", "2025-06-01T00:01:00Z", MODEL, "tasks.jsonl", k, price, tasks, runs);
    }

    @Test
    void passAt1AndPassHatKFollowFromTheRuns() {
        Report r = report(List.of(task("a"), task("b"), task("c")), List.of(
                run("a", 1, true, 100, 10, 1), run("a", 2, false, 200, 20, 2), run("a", 3, true, 300, 30, 3),
                run("b", 3, true, 100, 10, 4), run("b", 1, true, 100, 10, 5), run("b", 2, true, 100, 10, 6),
                run("c", 1, false, 0, 0, 7), run("c", 2, false, 0, 0, 8), run("c", 3, false, 0, 0, 20)), 3, new Report.Price(2, 8));
        assertEquals(2.0 / 3, r.tasks().get(0).passAt1(), 1e-9);
        assertEquals(false, r.tasks().get(0).passHatK());
        assertEquals(true, r.tasks().get(1).passHatK());
        assertEquals(List.of(1, 2, 3), r.tasks().get(1).runs().stream().map(RunRecord::run).toList(), "runs in order");
        Report.Overall o = r.overall();
        assertEquals((2.0 / 3 + 1 + 0) / 3, o.passAt1(), 1e-9);
        assertEquals(1.0 / 3, o.passHatK(), 1e-9);
        assertEquals(5, o.passedRuns());
        assertEquals(900, o.inputTokens());
        assertEquals(100.0, o.inputTokensPerTask(), 1e-9);
        assertEquals(5.0, o.medianSeconds(), 1e-9);
        assertEquals(20.0, o.p90Seconds(), 1e-9, "nearest rank: ceil(0.9 × 9) = the 9th of 9");
    }

    @Test
    void theCostIsTheTokensAtThePrice() {
        Report r = report(List.of(task("a")), List.of(run("a", 1, true, 1_000_000, 100_000, 1)), 1, new Report.Price(2, 8));
        assertEquals(2.0 + 0.8, r.overall().cost(), 1e-9);
        assertEquals(2.8, r.overall().costPerTask(), 1e-9);
        assertEquals(null, report(List.of(task("a")), List.of(run("a", 1, true, 1, 1, 1)), 1, null).overall().cost());
    }

    @Test
    void compareListsTheTasksWhosePassAt1ChangedTaskIdFirst() throws Exception {
        List<EvalTask> tasks = List.of(task("same"), task("better"), task("worse"), task("gone"));
        Report before = report(tasks, List.of(run("same", 1, true, 100, 10, 1), run("better", 1, false, 100, 10, 1),
                run("worse", 1, true, 100, 10, 1), run("gone", 1, true, 100, 10, 1)), 1, null);
        Report after = report(List.of(task("same"), task("better"), task("worse"), task("new")), List.of(run("same", 1, true, 50, 5, 1),
                run("better", 1, true, 50, 5, 1), run("worse", 1, false, 50, 5, 1), run("new", 1, true, 50, 5, 1)), 1, null);
        Path a = dir.resolve("a.json");
        Path b = dir.resolve("b.json");
        Files.writeString(a, ReportJson.write(before).toString());
        Files.writeString(b, ReportJson.write(after).toString());
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);

        int code = new EvalCommand(out, out, dir).run(new String[]{"--compare", "a.json", "b.json"}, Map.of(), null);

        assertEquals(EvalCommand.OK, code);
        List<String> lines = printed.toString(StandardCharsets.UTF_8).lines().toList();
        List<String> taskLines = new ArrayList<>(lines.subList(lines.indexOf("4 tasks changed:") + 1, lines.indexOf("4 tasks changed:") + 5));
        assertEquals(List.of(
                "better  pass@1 0.00 -> 1.00 (+1.00)  pass^k no -> yes  A: rows differ: 3 missing",
                "worse  pass@1 1.00 -> 0.00 (-1.00)  pass^k yes -> no  B: rows differ: 3 missing",
                "gone  only in A (pass@1 1.00)",
                "new  only in B (pass@1 1.00)"), taskLines);
        assertTrue(lines.contains("  pass@1                   0.75 -> 0.75  (+0.00)"), lines.toString());
        assertTrue(lines.contains("  input tokens per task    100 -> 50  (-50)"), lines.toString());
    }

    @Test
    void aFileThatIsNotAReportIsRefused() throws Exception {
        Files.writeString(dir.resolve("x.json"), "{\"tasks\": []}");
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
        assertEquals(EvalCommand.USAGE, new EvalCommand(out, out, dir).run(new String[]{"--compare", "x.json", "x.json"}, Map.of(), null));
        assertTrue(printed.toString(StandardCharsets.UTF_8).contains("A is not a report of this harness"), printed.toString());
    }
}
