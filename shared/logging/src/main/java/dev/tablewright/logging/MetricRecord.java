package dev.tablewright.logging;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One CloudWatch Embedded Metric Format record: a log line whose {@code _aws.CloudWatchMetrics} tells CloudWatch
 * Logs to turn some of its fields into metrics (no agent, no API call). The values are fields of the line, beside
 * the usual context ({@code requestId}, {@code traceId}, ...) and any properties (ids, names: searchable in Logs
 * Insights, never dimensions).
 *
 * <p>The line is an INFO line like any other: a LogLevel above INFO drops it, and the metrics with it.
 */
public final class MetricRecord {

    private final StructuredLog log;
    private final String namespace;
    private final Metrics.Group group;
    private String dimensionValue;
    private final Map<Metrics.Metric, Double> values = new LinkedHashMap<>();
    private final List<Object> properties = new ArrayList<>();

    private MetricRecord(StructuredLog log, String namespace, Metrics.Group group) {
        this.log = log;
        this.namespace = namespace;
        this.group = group;
    }

    /** A record of {@code group} in {@code namespace}, written by {@code log}. */
    public static MetricRecord of(StructuredLog log, String namespace, Metrics.Group group) {
        return new MetricRecord(log, namespace, group);
    }

    /** The value of the group's dimension (e.g. the tool's name); a record without one is not written. */
    public MetricRecord dimension(String value) {
        this.dimensionValue = value;
        return this;
    }

    public MetricRecord value(Metrics.Metric metric, double value) {
        if (!group.has(metric)) {
            throw new IllegalArgumentException(metric.name() + " is not a metric of the " + group.record() + " record");
        }
        values.put(metric, value);
        return this;
    }

    /** A field of the line that is not a metric (an id, a status, a list); a null value leaves the field out. */
    public MetricRecord property(String name, Object value) {
        if (value == null) {
            return this;
        }
        properties.add(name);
        properties.add(value);
        return this;
    }

    /**
     * Writes the line, declaring the metrics given a value (one that has none this time, e.g. no first token, is left
     * out rather than sent as zero); a record with no metric or no dimension value is a programming error.
     */
    public void write() {
        if (values.isEmpty()) {
            throw new IllegalStateException("the " + group.record() + " record has no metric");
        }
        if (dimensionValue == null || dimensionValue.isBlank()) {
            throw new IllegalStateException("the " + group.record() + " record has no " + group.dimension());
        }
        List<Map<String, String>> definitions = new ArrayList<>();
        for (Metrics.Metric m : values.keySet()) {
            definitions.add(Map.of("Name", m.name(), "Unit", m.unit().name()));
        }
        Map<String, Object> aws = new LinkedHashMap<>();
        aws.put("Timestamp", System.currentTimeMillis());
        aws.put("CloudWatchMetrics", List.of(Map.of("Namespace", namespace,
                "Dimensions", group.dimensionSets(), "Metrics", definitions)));
        List<Object> fields = new ArrayList<>();
        fields.add("_aws");
        fields.add(aws);
        fields.add(group.dimension());
        fields.add(dimensionValue);
        values.forEach((metric, value) -> {
            fields.add(metric.name());
            // whole numbers stay integers in the line (counts); durations keep two decimals
            fields.add(value == Math.rint(value) && Math.abs(value) < 1e15 ? (Object) (long) (double) value
                    : (Object) (Math.round(value * 100) / 100.0));
        });
        fields.addAll(properties);
        log.info(group.record(), fields.toArray());
    }
}
