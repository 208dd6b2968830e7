package dev.tablewright.checks.template;

import dev.tablewright.fakes.template.SamTemplate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;
import dev.tablewright.logging.Metrics;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.tablewright.fakes.template.SamTemplate.list;
import static dev.tablewright.fakes.template.SamTemplate.map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The dashboard and the alarms of template.yaml ask only for metrics the code publishes: every metric of the stack's
 * namespace they name, with its dimensions, is in {@link Metrics} (the one list the EMF records are written from),
 * and every metric of that list is on the dashboard. The alarms the operations guide describes exist and notify the
 * optional topic.
 */
class TemplateMetricsTest {

    static SamTemplate template;
    private static final Pattern SUB_NAME = Pattern.compile("\\$\\{([A-Za-z0-9:.]+)}");
    private static final Pattern SEARCH = Pattern.compile("SEARCH\\('\\{([^}]*)}\\s+MetricName=(?:\"(\\w+)\"|\\(([^)]*)\\))");

    /** A metric a dashboard widget or an alarm names: namespace ("@stack@" for the stack's), name, dimension names. */
    record Use(String where, String namespace, String name, List<String> dimensions) {
    }

    @BeforeAll
    static void load() throws IOException {
        template = SamTemplate.load(SamTemplate.locate());
    }

    static Map<String, Object> properties(String id) {
        Map<String, Object> resource = map(template.section("Resources").get(id));
        assertFalse(resource.isEmpty(), "no resource " + id);
        return map(resource.get("Properties"));
    }

    /** The dashboard's JSON with ${MetricsNamespace} as "@stack@" and every other ${..} (a name of the template) as 1. */
    static JsonNode dashboard() throws IOException {
        Object body = properties("OperationsDashboard").get("DashboardBody");
        assertTrue(body instanceof SamTemplate.Intrinsic i && i.function().equals("Sub") && i.argument() instanceof String,
                "DashboardBody is a !Sub of a JSON text: " + body);
        String text = (String) ((SamTemplate.Intrinsic) body).argument();
        Set<String> known = new LinkedHashSet<>(template.section("Parameters").keySet());
        known.addAll(template.section("Resources").keySet());
        Matcher m = SUB_NAME.matcher(text);
        StringBuilder resolved = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            String target = name.startsWith("AWS::") ? name : name.split("\\.")[0];
            assertTrue(target.startsWith("AWS::") || known.contains(target), "the dashboard names ${" + name + "}, which the template does not declare");
            m.appendReplacement(resolved, name.equals("MetricsNamespace") ? "@stack@" : "1");
        }
        m.appendTail(resolved);
        return Json.MAPPER.readTree(resolved.toString());
    }

    static List<Use> dashboardUses() throws IOException {
        List<Use> uses = new ArrayList<>();
        for (JsonNode widget : dashboard().path("widgets")) {
            String title = widget.at("/properties/title").asText();
            for (JsonNode row : widget.at("/properties/metrics")) {
                if (row.get(0).isObject()) {
                    Matcher s = SEARCH.matcher(row.get(0).path("expression").asText());
                    assertTrue(s.find(), title + ": an expression other than a SEARCH: " + row);
                    List<String> schema = List.of(s.group(1).split(","));
                    List<String> names = s.group(2) != null ? List.of(s.group(2))
                            : List.of(s.group(3).replace("\"", "").split("\\s+OR\\s+"));
                    for (String name : names) {
                        uses.add(new Use(title, schema.getFirst(), name, schema.subList(1, schema.size())));
                    }
                    continue;
                }
                List<String> dimensions = new ArrayList<>();
                for (int i = 2; i + 1 < row.size() && row.get(i).isTextual(); i += 2) {
                    dimensions.add(row.get(i).asText());
                }
                uses.add(new Use(title, row.get(0).asText(), row.get(1).asText(), dimensions));
            }
        }
        return uses;
    }

    static Map<String, Map<String, Object>> alarms() {
        return template.resourcesOfType("AWS::CloudWatch::Alarm");
    }

    static List<Use> alarmUses() {
        List<Use> uses = new ArrayList<>();
        alarms().forEach((id, alarm) -> {
            Map<String, Object> p = map(alarm.get("Properties"));
            List<Map<String, Object>> metrics = new ArrayList<>();
            if (p.containsKey("MetricName")) {
                metrics.add(p);
            }
            for (Object q : list(p.get("Metrics"))) {
                Map<String, Object> stat = map(map(map(q).get("MetricStat")).get("Metric"));
                if (!stat.isEmpty()) {
                    metrics.add(stat);
                }
            }
            for (Map<String, Object> m : metrics) {
                Object ns = m.get("Namespace");
                String namespace = ns instanceof SamTemplate.Intrinsic i && i.equals(new SamTemplate.Intrinsic("Ref", "MetricsNamespace"))
                        ? "@stack@" : String.valueOf(ns);
                List<String> dimensions = list(m.get("Dimensions")).stream().map(d -> String.valueOf(map(d).get("Name"))).toList();
                uses.add(new Use(id, namespace, String.valueOf(m.get("MetricName")), dimensions));
            }
        });
        return uses;
    }

    static void assertPublished(Use use) {
        Map<String, Metrics.Group> byName = Metrics.groupByMetricName();
        Metrics.Group group = byName.get(use.name());
        assertTrue(group != null, use.where() + " asks for " + use.name() + ", which no record publishes (Metrics lists " + byName.keySet() + ")");
        assertTrue(group.dimensionSets().contains(use.dimensions()), use.where() + " asks for " + use.name() + " by "
                + use.dimensions() + "; it is published by " + group.dimensionSets());
    }

    @Test
    void theDashboardShowsEveryMetricOfTheListAndNoOther() throws IOException {
        List<Use> uses = dashboardUses();
        Set<String> shown = new TreeSet<>();
        for (Use use : uses) {
            if (use.namespace().equals("@stack@")) {
                assertPublished(use);
                shown.add(use.name());
            } else {
                assertTrue(use.namespace().startsWith("AWS/"), use.where() + ": namespace " + use.namespace());
            }
        }
        assertEquals(new TreeSet<>(Metrics.all().map(Metrics.Metric::name).toList()), shown, "every published metric is on the dashboard");
        Set<String> aws = new TreeSet<>();
        uses.stream().filter(u -> u.namespace().startsWith("AWS/")).forEach(u -> aws.add(u.namespace() + " " + u.name()));
        assertTrue(aws.containsAll(Set.of("AWS/Lambda Errors", "AWS/Lambda Throttles", "AWS/DynamoDB ReadThrottleEvents",
                "AWS/DynamoDB WriteThrottleEvents")), aws.toString());
    }

    @Test
    void theAlarmsAskOnlyForPublishedMetrics() {
        List<Use> uses = alarmUses();
        assertFalse(uses.isEmpty());
        uses.stream().filter(u -> u.namespace().equals("@stack@")).forEach(TemplateMetricsTest::assertPublished);
    }

    @Test
    void theOperationsGuidesAlarmsExistAndNotifyTheOptionalTopic() {
        Map<String, Map<String, Object>> alarms = alarms();
        assertEquals(Set.of("ModelErrorShareAlarm", "TimeToFirstTokenAlarm", "FunctionErrorsAlarm", "AguiFunctionErrorsAlarm", "DynamoDbThrottlingAlarm",
                        "DynamoDbSessionTablesThrottlingAlarm"),
                alarms.keySet());
        SamTemplate.Intrinsic toTopic = new SamTemplate.Intrinsic("If", List.of("HasAlarmTopic",
                List.of(new SamTemplate.Intrinsic("Ref", "AlarmTopicArn")), new SamTemplate.Intrinsic("Ref", "AWS::NoValue")));
        alarms.forEach((id, alarm) -> {
            Map<String, Object> p = map(alarm.get("Properties"));
            assertEquals(toTopic, p.get("AlarmActions"), id);
            assertEquals(toTopic, p.get("OKActions"), id);
            assertTrue(String.valueOf(p.get("AlarmDescription")).contains("docs/operations.md#"), id + " points at its section");
        });
        assertEquals("", template.parameterDefaults().get("AlarmTopicArn"), "no topic unless one is given");

        // the share of model errors: turns by Outcome model-error over all turns, by metric math
        Map<String, Object> share = map(alarms.get("ModelErrorShareAlarm").get("Properties"));
        List<String> outcomeValues = new ArrayList<>();
        for (Object q : list(share.get("Metrics"))) {
            for (Object d : list(map(map(map(q).get("MetricStat")).get("Metric")).get("Dimensions"))) {
                outcomeValues.add(map(d).get("Name") + "=" + map(d).get("Value"));
            }
        }
        assertEquals(List.of("Outcome=model-error"), outcomeValues);
        assertTrue(list(share.get("Metrics")).stream().anyMatch(q -> String.valueOf(map(q).get("Expression")).contains("/ turns")));

        Map<String, Object> ttft = map(alarms.get("TimeToFirstTokenAlarm").get("Properties"));
        assertEquals(Metrics.TIME_TO_FIRST_TOKEN.name(), ttft.get("MetricName"));
        assertEquals("p95", ttft.get("ExtendedStatistic"));
    }

    @Test
    void theNamespaceAndTheSpanEndpointAreSettingsOfTheStack() {
        Map<String, String> defaults = template.parameterDefaults();
        assertEquals(Metrics.DEFAULT_NAMESPACE, defaults.get("MetricsNamespace"));
        assertEquals("", defaults.get("OtelExporterOtlpEndpoint"), "no spans unless an endpoint is given");
        assertEquals("false", defaults.get("OtelCaptureMessageContent"), "no contents in spans unless asked");
        Map<String, Object> globals = map(map(map(template.section("Globals").get("Function")).get("Environment")).get("Variables"));
        assertEquals(new SamTemplate.Intrinsic("Ref", "MetricsNamespace"), globals.get("METRICS_NAMESPACE"));
        Map<String, Object> chat = map(map(template.functionProperties("ChatTurnFunction").get("Environment")).get("Variables"));
        assertEquals(new SamTemplate.Intrinsic("Ref", "OtelExporterOtlpEndpoint"), chat.get("OTEL_EXPORTER_OTLP_ENDPOINT"));
        assertEquals(new SamTemplate.Intrinsic("Ref", "OtelCaptureMessageContent"), chat.get("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"));
    }
}
