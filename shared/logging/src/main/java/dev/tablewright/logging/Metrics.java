package dev.tablewright.logging;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Every CloudWatch metric the functions publish, in one list: its name, unit and the dimensions it is published
 * under. The EMF records ({@link MetricRecord}) can only carry metrics named here, and the template test checks that
 * the dashboard and the alarms of template.yaml ask for nothing else (docs/operations.md describes them).
 *
 * <p>Each group is published twice per record: by its dimension (e.g. {@code Outcome}) and with no dimension at
 * all, the stack-wide figure the alarms use. Dimension values are bounded sets (a stop reason, a tool name); user and
 * conversation ids stay properties of the log line, never dimensions.
 */
public final class Metrics {

    /** The namespace when the stack sets none ({@code METRICS_NAMESPACE}, the template's MetricsNamespace). */
    public static final String DEFAULT_NAMESPACE = "Tablewright";

    /** A CloudWatch unit, spelled as EMF and CloudWatch spell it. */
    public enum Unit {
        Milliseconds, Count
    }

    public record Metric(String name, Unit unit) {
    }

    /** Metrics written together in one record, under one dimension (and under none). */
    public record Group(String record, String dimension, List<Metric> metrics) {
        public Group {
            metrics = List.copyOf(metrics);
        }

        /** The dimension sets of the record: by the dimension, and the stack-wide aggregate. */
        public List<List<String>> dimensionSets() {
            return List.of(List.of(dimension), List.of());
        }

        public boolean has(Metric metric) {
            return metrics.contains(metric);
        }
    }

    public static final Metric TURN_DURATION = new Metric("TurnDuration", Unit.Milliseconds);
    public static final Metric TIME_TO_FIRST_TOKEN = new Metric("TimeToFirstToken", Unit.Milliseconds);
    public static final Metric INPUT_TOKENS = new Metric("InputTokens", Unit.Count);
    public static final Metric OUTPUT_TOKENS = new Metric("OutputTokens", Unit.Count);
    public static final Metric TOOL_CALLS = new Metric("ToolCalls", Unit.Count);
    public static final Metric MODEL_RETRIES = new Metric("ModelRetries", Unit.Count);

    /** One record per chat turn, by {@code Outcome}: the turn's stop reason. */
    public static final Group TURN = new Group("chat turn", "Outcome",
            List.of(TURN_DURATION, TIME_TO_FIRST_TOKEN, INPUT_TOKENS, OUTPUT_TOKENS, TOOL_CALLS, MODEL_RETRIES));

    public static final Metric TOOL_DURATION = new Metric("ToolDuration", Unit.Milliseconds);
    public static final Metric TOOL_ERRORS = new Metric("ToolErrors", Unit.Count);

    /** One record per tool invocation, by {@code Tool}: the tool's name. */
    public static final Group TOOL = new Group("tool answered", "Tool", List.of(TOOL_DURATION, TOOL_ERRORS));

    public static final Metric MCP_REQUEST_DURATION = new Metric("McpRequestDuration", Unit.Milliseconds);
    public static final Metric MCP_ERRORS = new Metric("McpErrors", Unit.Count);

    /**
     * One record per MCP request, by {@code Method} ({@code initialize}, {@code ping}, {@code tools/list},
     * {@code tools/call}, or {@code other}: a client's method names never become dimensions); errors are JSON-RPC errors.
     */
    public static final Group MCP = new Group("mcp request", "Method", List.of(MCP_REQUEST_DURATION, MCP_ERRORS));

    public static final List<Group> GROUPS = List.of(TURN, TOOL, MCP);

    private Metrics() {
    }

    /** Every metric by name. */
    public static Map<String, Group> groupByMetricName() {
        return GROUPS.stream().flatMap(g -> g.metrics().stream().map(m -> Map.entry(m.name(), g)))
                .collect(java.util.stream.Collectors.toUnmodifiableMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    public static Stream<Metric> all() {
        return GROUPS.stream().flatMap(g -> g.metrics().stream());
    }

    /** The namespace of the stack: {@code METRICS_NAMESPACE} from the given environment, else the default. */
    public static String namespace(Map<String, String> environment) {
        String value = environment.get("METRICS_NAMESPACE");
        return value == null || value.isBlank() ? DEFAULT_NAMESPACE : value.strip();
    }
}
