package dev.tablewright.logging;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The line CloudWatch Logs turns into metrics: the EMF fields as its specification asks, and the line's context beside them. */
class MetricRecordTest {

    final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    final StructuredLog log = StructuredLog.of(MetricRecordTest.class);

    @AfterEach
    void restore() {
        StructuredLog.redirect(System.out);
        StructuredLog.threshold("INFO");
        StructuredLog.clear();
    }

    JsonNode onlyLine() throws Exception {
        String[] lines = buffer.toString(StandardCharsets.UTF_8).strip().split("\n");
        assertEquals(1, lines.length, buffer.toString(StandardCharsets.UTF_8));
        return Json.MAPPER.readTree(lines[0]);
    }

    @Test
    void aToolRecordIsOneLineWithItsMetricsDimensionsAndContext() throws Exception {
        StructuredLog.redirect(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        StructuredLog.put("conversationId", "c_1");
        MetricRecord.of(log, "Tablewright-test", Metrics.TOOL).dimension("apply_column_change")
                .value(Metrics.TOOL_DURATION, 12.3456).value(Metrics.TOOL_ERRORS, 0).property("status", "ok").write();

        JsonNode line = onlyLine();
        assertEquals("INFO", line.get("level").asText());
        assertEquals("tool answered", line.get("message").asText());
        assertEquals("c_1", line.get("conversationId").asText(), "a property, not a dimension");
        assertEquals("apply_column_change", line.get("Tool").asText());
        assertEquals(12.35, line.get("ToolDuration").asDouble());
        assertTrue(line.get("ToolErrors").isIntegralNumber());
        assertEquals("ok", line.get("status").asText());

        JsonNode aws = line.get("_aws");
        assertTrue(aws.get("Timestamp").isIntegralNumber());
        JsonNode directive = aws.get("CloudWatchMetrics").get(0);
        assertEquals("Tablewright-test", directive.get("Namespace").asText());
        assertEquals("[[\"Tool\"],[]]", directive.get("Dimensions").toString());
        Set<String> declared = new HashSet<>();
        directive.get("Metrics").forEach(m -> declared.add(m.get("Name").asText() + ":" + m.get("Unit").asText()));
        assertEquals(Set.of("ToolDuration:Milliseconds", "ToolErrors:Count"), declared);
        // every declared metric and dimension is a number / text at the root, as EMF requires
        directive.get("Metrics").forEach(m -> assertTrue(line.get(m.get("Name").asText()).isNumber()));
    }

    @Test
    void aRecordCarriesOnlyItsGroupsMetricsAndADimension() {
        assertThrows(IllegalArgumentException.class,
                () -> MetricRecord.of(log, "n", Metrics.TOOL).value(Metrics.TURN_DURATION, 1));
        assertThrows(IllegalStateException.class, () -> MetricRecord.of(log, "n", Metrics.TOOL).dimension("t").write());
        assertThrows(IllegalStateException.class, () -> MetricRecord.of(log, "n", Metrics.TOOL)
                .value(Metrics.TOOL_DURATION, 1).value(Metrics.TOOL_ERRORS, 0).write());
    }

    @Test
    void theCatalogueNamesEachMetricOnceAndNoIdAsADimension() {
        List<String> names = Metrics.all().map(Metrics.Metric::name).toList();
        assertEquals(names.size(), Set.copyOf(names).size(), names.toString());
        for (Metrics.Group g : Metrics.GROUPS) {
            assertFalse(g.dimension().toLowerCase().contains("id"), g.dimension());
        }
        assertEquals("Tablewright", Metrics.namespace(Map.of()));
        assertEquals("Shop", Metrics.namespace(Map.of("METRICS_NAMESPACE", " Shop ")));
    }

    @Test
    void aMetricWithoutAValueIsNotDeclared() throws Exception {
        StructuredLog.redirect(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        MetricRecord.of(log, "n", Metrics.TURN).dimension("model-error").value(Metrics.TURN_DURATION, 5).write();
        JsonNode line = onlyLine();
        assertEquals(1, line.at("/_aws/CloudWatchMetrics/0/Metrics").size());
        assertFalse(line.has("TimeToFirstToken"));
        assertEquals("model-error", line.get("Outcome").asText());
    }
}
