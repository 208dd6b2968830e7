package dev.tablewright.eval;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;

/**
 * {@code report.json}: the {@link Report} in the schema docs/evaluation.md documents ({@value #SCHEMA}). Numbers are
 * plain JSON numbers (rates between 0 and 1, seconds, tokens, dollars); a value that does not apply is null.
 */
public final class ReportJson {

    public static final String SCHEMA = "tablewright-eval-report/1";

    private ReportJson() {
    }

    public static ObjectNode write(Report report) {
        ObjectNode out = Json.object().put("schema", SCHEMA);
        out.put("startedAt", report.startedAt()).put("finishedAt", report.finishedAt());
        EvalStack.ModelInfo m = report.model();
        out.putObject("model").put("kind", m.kind()).put("provider", m.provider()).put("name", m.name()).put("label", m.label());
        out.put("tasksFile", report.tasksSource());
        out.put("runsPerTask", report.runsPerTask());
        if (report.price() == null) {
            out.putNull("price");
        } else {
            out.putObject("price").put("inputPerMillion", report.price().inputPerMillion())
                    .put("outputPerMillion", report.price().outputPerMillion());
        }
        Report.Overall o = report.overall();
        ObjectNode overall = out.putObject("overall");
        overall.put("tasks", o.tasks()).put("runs", o.runs()).put("passedRuns", o.passedRuns())
                .put("passAt1", round(o.passAt1())).put("passHatK", round(o.passHatK())).put("k", report.runsPerTask())
                .put("inputTokens", o.inputTokens()).put("outputTokens", o.outputTokens())
                .put("inputTokensPerTask", round(o.inputTokensPerTask())).put("outputTokensPerTask", round(o.outputTokensPerTask()))
                .put("medianSeconds", round(o.medianSeconds())).put("p90Seconds", round(o.p90Seconds()));
        putNullable(overall, "cost", o.cost());
        putNullable(overall, "costPerTask", o.costPerTask());
        ArrayNode tasks = out.putArray("tasks");
        for (Report.TaskResult t : report.tasks()) {
            ObjectNode task = tasks.addObject().put("id", t.id());
            ArrayNode tags = task.putArray("tags");
            t.tags().stream().sorted().forEach(tags::add);
            task.put("passAt1", round(t.passAt1())).put("passHatK", t.passHatK())
                    .put("inputTokens", round(t.inputTokens())).put("outputTokens", round(t.outputTokens()))
                    .put("medianSeconds", round(t.medianSeconds()));
            ArrayNode runs = task.putArray("runs");
            for (RunRecord r : t.runs()) {
                runs.add(run(r));
            }
        }
        return out;
    }

    static ObjectNode run(RunRecord r) {
        ObjectNode run = Json.object().put("run", r.run()).put("passed", r.passed()).put("reason", r.reason())
                .put("modelSteps", r.modelSteps()).put("toolCalls", r.toolCalls()).put("failedToolCalls", r.failedToolCalls())
                .put("inputTokens", r.inputTokens()).put("outputTokens", r.outputTokens())
                .put("seconds", round(r.seconds())).put("conversationId", r.conversationId());
        if (r.configId() == null) {
            run.putNull("configId");
        } else {
            run.put("configId", r.configId());
        }
        if (r.config() == null) {
            run.putNull("config");
        } else {
            run.set("config", r.config());
        }
        ArrayNode turns = run.putArray("turns");
        for (RunRecord.Turn t : r.turns()) {
            ObjectNode turn = turns.addObject();
            Json.putIfPresent(turn, "finishReason", t.finishReason());
            turn.put("modelSteps", t.modelSteps()).put("toolCalls", t.toolCalls()).put("failedToolCalls", t.failedToolCalls())
                    .put("inputTokens", t.inputTokens()).put("outputTokens", t.outputTokens()).put("previews", t.previews());
        }
        ArrayNode notes = run.putArray("notes");
        r.notes().forEach(notes::add);
        return run;
    }

    private static void putNullable(ObjectNode node, String key, Double value) {
        if (value == null) {
            node.putNull(key);
        } else {
            node.put(key, Math.round(value * 1_000_000d) / 1_000_000d);
        }
    }

    /** Four decimals: enough for rates and seconds, and stable to read. */
    static double round(double value) {
        return Math.round(value * 10_000d) / 10_000d;
    }
}
