package dev.tablewright.agent;

import dev.tablewright.agent.memory.MemoryBudget;
import dev.tablewright.agent.model.ModelFailure;
import dev.tablewright.agent.model.TokenUsage;
import dev.tablewright.logging.StructuredLog;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What one turn did, logged once at its end: steps, each tool call's latency and status, tokens, how much memory was sent, outcome. */
final class TurnRecord {

    private static final StructuredLog LOG = StructuredLog.of(TurnRecord.class);

    private final long startNanos = System.nanoTime();
    int steps;
    int modelAttempts;
    long modelNanos;
    /** Characters of text and tool input the model streamed in this turn (bounded by TurnLimits.maxOutputChars). */
    long outputChars;
    TokenUsage usage = TokenUsage.NONE;
    StopReason outcome = StopReason.COMPLETED;
    /** The model's failure, when the turn ended on one. */
    ModelFailure.Kind modelFailure;
    /** When the model's first text or tool call arrived (0: none did). */
    long firstTokenNanos;
    private final List<Map<String, Object>> tools = new ArrayList<>();

    void tool(String name, String status, long nanos) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("tool", name);
        entry.put("status", status);
        entry.put("ms", Math.round(nanos / 1e4) / 100.0);
        tools.add(entry);
    }

    void log(MemoryBudget.Context earlier) {
        LOG.info("chat turn", "outcome", outcome.code(), "modelFailure", modelFailure == null ? null : modelFailure.name().toLowerCase(java.util.Locale.ROOT),
                "steps", steps, "modelAttempts", modelAttempts,
                "firstTokenMs", firstTokenNanos == 0 ? null : nanos(firstTokenNanos - startNanos),
                "earlierMessages", earlier.recent().size(), "earlierDigests", earlier.earlier().size() + earlier.notShown(),
                "modelMs", nanos(modelNanos), "turnMs", nanos(System.nanoTime() - startNanos),
                "promptTokens", usage.promptTokens(), "completionTokens", usage.completionTokens(), "outputChars", outputChars, "tools", tools);
    }

    private static double nanos(long n) {
        return Math.round(n / 1e4) / 100.0;
    }
}
