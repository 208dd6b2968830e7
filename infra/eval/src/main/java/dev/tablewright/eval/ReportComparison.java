package dev.tablewright.eval;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code --compare A B}: two {@code report.json}s side by side. First one line per task whose pass@1 changed (the task
 * id first), and per task only one of them ran; then the overall figures with their deltas (B − A).
 */
public final class ReportComparison {

    private ReportComparison() {
    }

    /** Why a file is not a report this command can compare. */
    public static final class NotAReport extends Exception {
        NotAReport(String message) {
            super(message);
        }
    }

    public static List<String> compare(JsonNode a, JsonNode b) throws NotAReport {
        check(a, "A");
        check(b, "B");
        Map<String, JsonNode> before = byId(a);
        Map<String, JsonNode> after = byId(b);
        List<String> lines = new ArrayList<>();
        lines.add("A: " + describe(a));
        lines.add("B: " + describe(b));
        List<String> changed = new ArrayList<>();
        before.forEach((id, t) -> {
            JsonNode u = after.get(id);
            if (u == null) {
                changed.add(id + "  only in A (pass@1 " + ReportMarkdown.rate(t.path("passAt1").asDouble()) + ")");
                return;
            }
            double p = t.path("passAt1").asDouble();
            double q = u.path("passAt1").asDouble();
            if (Math.abs(p - q) > 1e-9) {
                changed.add(id + "  pass@1 " + ReportMarkdown.rate(p) + " -> " + ReportMarkdown.rate(q) + " (" + signed(q - p) + ")"
                        + "  pass^k " + yesNo(t.path("passHatK")) + " -> " + yesNo(u.path("passHatK"))
                        + lastReason(q < p ? u : t, q < p ? "B" : "A"));
            }
        });
        after.forEach((id, u) -> {
            if (!before.containsKey(id)) {
                changed.add(id + "  only in B (pass@1 " + ReportMarkdown.rate(u.path("passAt1").asDouble()) + ")");
            }
        });
        lines.add("");
        lines.add(changed.isEmpty() ? "No task changed its pass@1." : changed.size() + " task" + (changed.size() == 1 ? "" : "s")
                + " changed:");
        lines.addAll(changed);
        lines.add("");
        lines.add("overall (A -> B):");
        JsonNode oa = a.path("overall");
        JsonNode ob = b.path("overall");
        lines.add(delta("pass@1", oa, ob, "passAt1", "%.2f"));
        lines.add(delta("pass^k", oa, ob, "passHatK", "%.2f"));
        lines.add(delta("input tokens per task", oa, ob, "inputTokensPerTask", "%.0f"));
        lines.add(delta("output tokens per task", oa, ob, "outputTokensPerTask", "%.0f"));
        lines.add(delta("median seconds per task", oa, ob, "medianSeconds", "%.1f"));
        lines.add(delta("p90 seconds per task", oa, ob, "p90Seconds", "%.1f"));
        if (oa.path("costPerTask").isNumber() && ob.path("costPerTask").isNumber()) {
            lines.add(delta("cost per task ($)", oa, ob, "costPerTask", "%.4f"));
        }
        return lines;
    }

    private static void check(JsonNode report, String which) throws NotAReport {
        if (!ReportJson.SCHEMA.equals(report.path("schema").asText()) || !report.path("tasks").isArray()) {
            throw new NotAReport(which + " is not a report of this harness (\"schema\": \"" + ReportJson.SCHEMA + "\")");
        }
    }

    private static String describe(JsonNode report) {
        int k = report.path("runsPerTask").asInt();
        return report.path("model").path("label").asText("?") + " (" + report.path("startedAt").asText("?") + ", "
                + report.path("tasks").size() + " tasks, " + k + (k == 1 ? " run" : " runs") + " per task)";
    }

    private static Map<String, JsonNode> byId(JsonNode report) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        report.path("tasks").forEach(t -> out.put(t.path("id").asText(), t));
        return out;
    }

    /** The reason of the first failed run of the side that did worse, so the line says what went wrong. */
    private static String lastReason(JsonNode task, String side) {
        for (JsonNode run : task.path("runs")) {
            if (!run.path("passed").asBoolean()) {
                String reason = run.path("reason").asText();
                return "  " + side + ": " + (reason.length() > 160 ? reason.substring(0, 160) + "…" : reason);
            }
        }
        return "";
    }

    private static String delta(String label, JsonNode a, JsonNode b, String field, String format) {
        double x = a.path(field).asDouble();
        double y = b.path(field).asDouble();
        return String.format(Locale.ROOT, "  %-24s " + format + " -> " + format + "  (%s)", label, x, y,
                (y - x >= 0 ? "+" : "") + String.format(Locale.ROOT, format, y - x));
    }

    private static String signed(double d) {
        return (d >= 0 ? "+" : "") + ReportMarkdown.rate(d);
    }

    private static String yesNo(JsonNode passHatK) {
        return passHatK.asBoolean() ? "yes" : "no";
    }
}
