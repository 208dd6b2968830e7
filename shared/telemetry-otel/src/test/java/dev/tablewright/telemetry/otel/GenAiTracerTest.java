package dev.tablewright.telemetry.otel;

import dev.tablewright.logging.StructuredLog;
import dev.tablewright.logging.TraceContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The spans of a turn as the SDK hands them to the exporter: names, parents, GenAI attributes, flushed by the turn's end. */
class GenAiTracerTest {

    /** What the exporter was given, in order. */
    static final class Collected implements SpanExporter {
        final List<SpanData> spans = new ArrayList<>();

        @Override
        public synchronized CompletableResultCode export(Collection<SpanData> batch) {
            spans.addAll(batch);
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }

    @AfterEach
    void clear() {
        StructuredLog.clear();
    }

    static Map<String, SpanData> byName(List<SpanData> spans) {
        return spans.stream().collect(Collectors.toMap(SpanData::getName, Function.identity()));
    }

    @Test
    void aTurnIsOneTraceWithItsModelAndToolCallsExportedByTheFlush() {
        Collected exporter = new Collected();
        TraceContext trace = TraceContext.generate();
        TraceContext.begin(trace);
        try (GenAiTracer tracer = new GenAiTracer(exporter, false)) {
            GenAiTracer.Turn turn = tracer.startTurn("conv-1");
            GenAiTracer.ModelCall first = turn.startModelCall("openai", "gpt-4o-mini", () -> { throw new AssertionError("no contents"); });
            first.end(1200, 40, "tool_calls", () -> { throw new AssertionError("no contents"); });
            turn.startToolCall("apply_column_change", "call_1", () -> "{}").end(null, () -> "{}");
            turn.startToolCall("preview_table_config", "call_2", () -> "{}").end("invalid_arguments", () -> "{}");
            turn.startModelCall("openai", "gpt-4o-mini", () -> "[]").end(1500, 60, "stop", () -> "[]");
            turn.end("stop", false);
            assertTrue(exporter.spans.isEmpty(), "nothing is exported before the flush");
            tracer.flush();
            assertEquals(5, exporter.spans.size(), "all of the turn's spans are out when flush returns");
        }
        List<SpanData> spans = exporter.spans;
        SpanData root = spans.stream().filter(s -> s.getName().equals("invoke_agent tablewright")).findFirst().orElseThrow();
        assertFalse(root.getParentSpanContext().isValid(), "the turn's span is the root");
        for (SpanData s : spans) {
            assertEquals(trace.traceId(), s.getTraceId(), "the log lines' traceId: " + s.getName());
            assertEquals("conv-1", s.getAttributes().get(GenAiTracer.CONVERSATION), s.getName());
            if (s != root) {
                assertEquals(root.getSpanId(), s.getParentSpanId(), s.getName());
            }
        }
        assertEquals("stop", root.getAttributes().get(GenAiTracer.OUTCOME));

        List<SpanData> chats = spans.stream().filter(s -> s.getName().equals("chat gpt-4o-mini")).toList();
        assertEquals(2, chats.size());
        SpanData chat = chats.getFirst();
        assertEquals(SpanKind.CLIENT, chat.getKind());
        assertEquals("chat", chat.getAttributes().get(GenAiTracer.OPERATION));
        assertEquals("openai", chat.getAttributes().get(GenAiTracer.PROVIDER));
        assertEquals("gpt-4o-mini", chat.getAttributes().get(GenAiTracer.REQUEST_MODEL));
        assertEquals(1200L, chat.getAttributes().get(GenAiTracer.INPUT_TOKENS));
        assertEquals(40L, chat.getAttributes().get(GenAiTracer.OUTPUT_TOKENS));
        assertEquals(List.of("tool_calls"), chat.getAttributes().get(GenAiTracer.FINISH_REASONS));
        assertNull(chat.getAttributes().get(GenAiTracer.INPUT_MESSAGES), "contents stay out unless asked for");

        Map<String, SpanData> named = byName(spans.stream().filter(s -> s.getName().startsWith("execute_tool")).toList());
        SpanData tool = named.get("execute_tool apply_column_change");
        assertEquals("apply_column_change", tool.getAttributes().get(GenAiTracer.TOOL_NAME));
        assertEquals("call_1", tool.getAttributes().get(GenAiTracer.TOOL_CALL_ID));
        assertEquals("execute_tool", tool.getAttributes().get(GenAiTracer.OPERATION));
        assertNull(tool.getAttributes().get(GenAiTracer.TOOL_ARGUMENTS));
        SpanData failed = named.get("execute_tool preview_table_config");
        assertEquals(StatusCode.ERROR, failed.getStatus().getStatusCode());
        assertEquals("invalid_arguments", failed.getAttributes().get(GenAiTracer.ERROR_TYPE));
    }

    @Test
    void contentsAreRecordedOnlyWhenAskedFor() {
        Collected exporter = new Collected();
        try (GenAiTracer tracer = new GenAiTracer(exporter, true)) {
            GenAiTracer.Turn turn = tracer.startTurn("conv-2");
            turn.startModelCall("openai", "m", () -> "[{\"role\":\"user\"}]").end(1, 2, "stop", () -> "[{\"role\":\"assistant\"}]");
            turn.startToolCall("t", "call_1", () -> "{\"a\":1}").end(null, () -> "{\"ok\":true}");
            GenAiTracer.ModelCall failing = turn.startModelCall("openai", "m", () -> "[]");
            failing.fail("rate_limited");
            turn.end("model-error", true);
            tracer.flush();
        }
        Map<String, SpanData> named = byName(exporter.spans.subList(0, 2));
        assertEquals("[{\"role\":\"user\"}]", named.get("chat m").getAttributes().get(GenAiTracer.INPUT_MESSAGES));
        assertEquals("[{\"role\":\"assistant\"}]", named.get("chat m").getAttributes().get(GenAiTracer.OUTPUT_MESSAGES));
        assertEquals("{\"a\":1}", named.get("execute_tool t").getAttributes().get(GenAiTracer.TOOL_ARGUMENTS));
        assertEquals("{\"ok\":true}", named.get("execute_tool t").getAttributes().get(GenAiTracer.TOOL_RESULT));
        SpanData failed = exporter.spans.get(2);
        assertEquals("rate_limited", failed.getAttributes().get(GenAiTracer.ERROR_TYPE));
        SpanData root = exporter.spans.get(3);
        assertEquals(StatusCode.ERROR, root.getStatus().getStatusCode());
        assertEquals("model-error", root.getAttributes().get(GenAiTracer.OUTCOME));
    }
}
