package dev.tablewright.aisdk.stream;

import dev.tablewright.fakes.stream.UiMessageStreamReader;
import dev.tablewright.http.stream.InMemoryResponseStream;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UiMessageStreamWriterTest {

    @Test
    void writesEveryPartInTheShapeOfTheAiSdkProtocol() throws Exception {
        InMemoryResponseStream response = new InMemoryResponseStream();
        UiMessageStreamWriter ui = new UiMessageStreamWriter(response);
        ui.start("msg_1");
        ui.startStep();
        ui.textStart("t1");
        ui.textDelta("t1", "Hel");
        ui.textDelta("t1", "lo \"you\"\n");
        ui.textEnd("t1");
        ui.write(new UiChunk.ReasoningStart("r1"));
        ui.write(new UiChunk.ReasoningDelta("r1", "hm"));
        ui.write(new UiChunk.ReasoningEnd("r1"));
        ui.write(new UiChunk.ToolInputStart("call_1", "apply_join_change"));
        ui.write(new UiChunk.ToolInputDelta("call_1", "{\"op\":"));
        ui.write(new UiChunk.ToolInputAvailable("call_1", "apply_join_change", Json.parse("{\"op\":\"add\"}")));
        ui.write(new UiChunk.ToolInputError("call_2", "apply_sort_change", Json.parse("\"{bad\""), "arguments are not JSON"));
        ui.write(new UiChunk.ToolOutputAvailable("call_1", Json.parse("{\"valid\":true}")));
        ui.write(new UiChunk.ToolOutputError("call_3", "tool failed"));
        ui.write(new UiChunk.Data("table-config-preview", "p1", Json.parse("{\"previewId\":\"p1\"}")));
        ui.write(new UiChunk.Data("status", null, Json.parse("\"working\""), true));
        ui.finishStep();
        ui.write(new UiChunk.MessageMetadata(Json.parse("{\"tokens\":3}")));
        ui.write(new UiChunk.Error("The model is unavailable."));
        ui.write(new UiChunk.Abort("stopped"));
        ui.finish(UiChunk.FinishReason.TOOL_CALLS, Json.parse("{\"a\":1}"));
        ui.done();

        assertEquals(200, response.statusCode());
        assertEquals("text/event-stream", response.headers().get("content-type"));
        assertEquals("no-cache", response.headers().get("cache-control"));
        assertEquals("v1", response.headers().get("x-vercel-ai-ui-message-stream"));
        List<String> expected = List.of(
                "{\"type\":\"start\",\"messageId\":\"msg_1\"}",
                "{\"type\":\"start-step\"}",
                "{\"type\":\"text-start\",\"id\":\"t1\"}",
                "{\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\"Hel\"}",
                "{\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\"lo \\\"you\\\"\\n\"}",
                "{\"type\":\"text-end\",\"id\":\"t1\"}",
                "{\"type\":\"reasoning-start\",\"id\":\"r1\"}",
                "{\"type\":\"reasoning-delta\",\"id\":\"r1\",\"delta\":\"hm\"}",
                "{\"type\":\"reasoning-end\",\"id\":\"r1\"}",
                "{\"type\":\"tool-input-start\",\"toolCallId\":\"call_1\",\"toolName\":\"apply_join_change\"}",
                "{\"type\":\"tool-input-delta\",\"toolCallId\":\"call_1\",\"inputTextDelta\":\"{\\\"op\\\":\"}",
                "{\"type\":\"tool-input-available\",\"toolCallId\":\"call_1\",\"toolName\":\"apply_join_change\",\"input\":{\"op\":\"add\"}}",
                "{\"type\":\"tool-input-error\",\"toolCallId\":\"call_2\",\"toolName\":\"apply_sort_change\",\"input\":\"{bad\",\"errorText\":\"arguments are not JSON\"}",
                "{\"type\":\"tool-output-available\",\"toolCallId\":\"call_1\",\"output\":{\"valid\":true}}",
                "{\"type\":\"tool-output-error\",\"toolCallId\":\"call_3\",\"errorText\":\"tool failed\"}",
                "{\"type\":\"data-table-config-preview\",\"id\":\"p1\",\"data\":{\"previewId\":\"p1\"}}",
                "{\"type\":\"data-status\",\"data\":\"working\",\"transient\":true}",
                "{\"type\":\"finish-step\"}",
                "{\"type\":\"message-metadata\",\"messageMetadata\":{\"tokens\":3}}",
                "{\"type\":\"error\",\"errorText\":\"The model is unavailable.\"}",
                "{\"type\":\"abort\",\"reason\":\"stopped\"}",
                "{\"type\":\"finish\",\"finishReason\":\"tool-calls\",\"messageMetadata\":{\"a\":1}}");
        StringBuilder body = new StringBuilder();
        expected.forEach(json -> body.append("data: ").append(json).append("\n\n"));
        body.append("data: [DONE]\n\n");
        assertEquals(body.toString(), response.body());
        // one flush per part, so the client sees each as it is made
        assertEquals(expected.size() + 1, response.flushes().size());
        assertEquals("closed", response.ending().state());

        UiMessageStreamReader.Parsed parsed = UiMessageStreamReader.parse(response.body());
        assertTrue(parsed.done());
        assertEquals(expected.size(), parsed.parts().size());
        assertEquals("finish", parsed.types().getLast());
    }

    @Test
    void aTurnCanStillAnswerPlainJsonBeforeTheFirstPart() {
        InMemoryResponseStream response = new InMemoryResponseStream();
        response.sendJson(400, "{\"error\":{\"field\":\"messages\"}}".getBytes(StandardCharsets.UTF_8));
        assertEquals(400, response.statusCode());
        assertEquals("application/json", response.headers().get("content-type"));
        assertEquals("{\"error\":{\"field\":\"messages\"}}", response.body());
    }

    @Test
    void aGoneClientDropsWritesAndRunsTheCallbackOnce() {
        InMemoryResponseStream response = new InMemoryResponseStream();
        UiMessageStreamWriter ui = new UiMessageStreamWriter(response);
        int[] calls = {0};
        response.onClientGone(() -> calls[0]++);
        ui.start("m");
        response.disconnect();
        response.disconnect();
        ui.textStart("t");
        assertTrue(ui.isClientGone());
        assertEquals(1, calls[0]);
        assertEquals(List.of("start"), UiMessageStreamReader.parse(response.body()).types());
        response.onClientGone(() -> calls[0]++);
        assertEquals(2, calls[0]);
    }

    @Test
    void nothingIsWrittenAfterDone() {
        UiMessageStreamWriter ui = new UiMessageStreamWriter(new InMemoryResponseStream());
        ui.done();
        ui.done();
        assertThrows(IllegalStateException.class, () -> ui.textStart("t"));
    }
}
