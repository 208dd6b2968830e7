package dev.tablewright.chat;

import dev.tablewright.chat.model.TokenUsage;
import dev.tablewright.logging.StructuredLog;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What one turn did, logged once at its end: steps, each tool call's latency and status, tokens, outcome. */
final class TurnRecord {

    private static final StructuredLog LOG = StructuredLog.of(TurnRecord.class);

    private final long startNanos = System.nanoTime();
    int steps;
    int modelAttempts;
    long modelNanos;
    /** Characters of text and tool input the model streamed in this turn (bounded by TurnLimits.maxOutputChars). */
    long outputChars;
    TokenUsage usage = TokenUsage.NONE;
    String outcome = "stop";
    private final List<Map<String, Object>> tools = new ArrayList<>();

    void tool(String name, String status, long nanos) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("tool", name);
        entry.put("status", status);
        entry.put("ms", Math.round(nanos / 1e4) / 100.0);
        tools.add(entry);
    }

    void log() {
        LOG.info("chat turn", "outcome", outcome, "steps", steps, "modelAttempts", modelAttempts,
                "modelMs", nanos(modelNanos), "turnMs", nanos(System.nanoTime() - startNanos),
                "promptTokens", usage.promptTokens(), "completionTokens", usage.completionTokens(), "outputChars", outputChars, "tools", tools);
    }

    private static double nanos(long n) {
        return Math.round(n / 1e4) / 100.0;
    }
}
