package dev.tablewright.agent;

import dev.tablewright.agent.memory.MemoryBudget;
import dev.tablewright.agent.model.ModelFailure;
import dev.tablewright.agent.model.TokenUsage;
import dev.tablewright.logging.MetricRecord;
import dev.tablewright.logging.Metrics;
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

    /**
     * The turn's line, which is also its EMF record (dev.tablewright.logging.Metrics.TURN): TurnDuration,
     * TimeToFirstToken (when a token came), InputTokens, OutputTokens, ToolCalls, ModelRetries by Outcome. The ids
     * stay properties of the line.
     */
    void log(String namespace, MemoryBudget.Context earlier, String userId) {
        long endNanos = System.nanoTime();
        MetricRecord line = MetricRecord.of(LOG, namespace, Metrics.TURN).dimension(outcome.code())
                .value(Metrics.TURN_DURATION, (endNanos - startNanos) / 1e6);
        if (firstTokenNanos != 0) {
            line.value(Metrics.TIME_TO_FIRST_TOKEN, (firstTokenNanos - startNanos) / 1e6);
        }
        line.value(Metrics.INPUT_TOKENS, usage.promptTokens())
                .value(Metrics.OUTPUT_TOKENS, usage.completionTokens())
                .value(Metrics.TOOL_CALLS, tools.size())
                // every step calls the model once; attempts past that were retries
                .value(Metrics.MODEL_RETRIES, Math.max(0, modelAttempts - steps))
                .property("userId", userId)
                .property("modelFailure", modelFailure == null ? null : modelFailure.name().toLowerCase(java.util.Locale.ROOT))
                .property("steps", steps).property("modelAttempts", modelAttempts)
                .property("earlierMessages", earlier.recent().size())
                .property("earlierDigests", earlier.earlier().size() + earlier.notShown())
                .property("modelMs", nanos(modelNanos)).property("outputChars", outputChars).property("tools", tools)
                .write();
    }

    private static double nanos(long n) {
        return Math.round(n / 1e4) / 100.0;
    }
}
