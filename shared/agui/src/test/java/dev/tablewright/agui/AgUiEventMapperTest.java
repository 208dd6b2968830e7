package dev.tablewright.agui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.AgentEvent;
import dev.tablewright.agent.Preview;
import dev.tablewright.agent.StopReason;
import dev.tablewright.agent.StopSignal;
import dev.tablewright.agent.model.TokenUsage;
import dev.tablewright.http.stream.InMemoryResponseStream;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AgUiEventMapperTest {

    final InMemoryResponseStream response = new InMemoryResponseStream();
    final AgUiEventStream stream = new AgUiEventStream(response);
    final AgUiEventMapper mapper = new AgUiEventMapper(stream, "th_1", "run_1", new SharedState(null, null), true, new StopSignal());

    static Preview preview() {
        return Preview.of(Json.objectLiteral("{\"previewId\":\"prv_1\",\"configId\":null,\"baseVersion\":null,"
                + "\"description\":\"A new table.\",\"config\":{\"name\":\"Stock\"},\"rows\":[{\"qty\":5}],"
                + "\"expiresAt\":\"2026-12-01T10:00:00Z\"}"));
    }

    /** The events written, as JSON, read back from the SSE body (one data: line each). */
    List<JsonNode> events() throws Exception {
        List<JsonNode> events = new ArrayList<>();
        for (String block : response.body().split("\n\n")) {
            assertTrue(block.startsWith("data: ") && !block.contains("\n"), "one data: line per event: " + block);
            events.add(Json.parse(block.substring(6)));
        }
        return events;
    }

    List<String> types() throws Exception {
        return events().stream().map(e -> e.path("type").asText()).toList();
    }

    @Test
    void aTurnThatBuildsATableAndLeavesItsPreviewPendingEndsInTheKeepInterrupt() throws Exception {
        mapper.start(null);
        mapper.emit(new AgentEvent.TurnStarted());
        mapper.emit(new AgentEvent.StepStarted());
        mapper.emit(new AgentEvent.ToolCallStarted("c1", "preview_table_config"));
        mapper.emit(new AgentEvent.ToolCallArgumentDelta("c1", "{}"));
        mapper.emit(new AgentEvent.ToolCallReady("c1", "preview_table_config", Json.object()));
        mapper.emit(new AgentEvent.ToolResult("c1", "preview_table_config", Json.object().put("valid", true)));
        mapper.emit(new AgentEvent.WorkingConfigChanged(Json.objectLiteral("{\"name\":\"Stock\"}")));
        mapper.emit(new AgentEvent.PreviewReady("c1", preview()));
        mapper.emit(new AgentEvent.StepFinished());
        mapper.emit(new AgentEvent.StepStarted());
        mapper.emit(new AgentEvent.TextStarted("txt_1"));
        mapper.emit(new AgentEvent.TextDelta("txt_1", "Keep it?"));
        mapper.emit(new AgentEvent.TextEnded("txt_1"));
        mapper.emit(new AgentEvent.StepFinished());
        mapper.emit(new AgentEvent.Stopped(StopReason.COMPLETED, TokenUsage.NONE));
        mapper.issuedCall("ap_1", "accept_preview", Json.object().put("previewId", "prv_1"));
        mapper.finish(List.of(Interrupts.keepPreview("ap_1", "ap_1", mapper.preview().orElseThrow())), List.of(), List.of());

        assertEquals(List.of("RUN_STARTED", "STATE_SNAPSHOT", "STEP_STARTED", "TOOL_CALL_START", "TOOL_CALL_ARGS",
                "TOOL_CALL_END", "TOOL_CALL_RESULT", "STATE_DELTA", "STATE_DELTA", "STEP_FINISHED", "STEP_STARTED",
                "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "STEP_FINISHED", "TOOL_CALL_START",
                "TOOL_CALL_ARGS", "TOOL_CALL_END", "STATE_SNAPSHOT", "MESSAGES_SNAPSHOT", "RUN_FINISHED"), types());
        List<JsonNode> events = events();
        JsonNode outcome = events.getLast().path("outcome");
        assertEquals("interrupt", outcome.path("type").asText());
        JsonNode interrupt = outcome.path("interrupts").path(0);
        assertEquals("tool_call", interrupt.path("reason").asText());
        assertEquals("ap_1", interrupt.path("toolCallId").asText());
        assertEquals("prv_1", interrupt.path("metadata").path("previewId").asText());
        assertEquals("2026-12-01T10:00:00Z", interrupt.path("expiresAt").asText());
        assertEquals("[\"approved\"]", interrupt.path("responseSchema").path("required").toString());
        assertTrue(interrupt.path("message").asText().contains("\"Stock\""), interrupt.toString());
        assertEquals("{\"previewId\":\"prv_1\"}", events.get(16).path("delta").asText());

        JsonNode state = events.get(1).path("snapshot");
        for (JsonNode e : events) {
            if (e.path("type").asText().equals("STATE_DELTA")) {
                state = JsonPatchTest.apply(state, (ArrayNode) e.path("delta"));
            }
        }
        JsonNode last = events.get(18).path("snapshot");
        assertEquals(last, state, "the deltas applied to the first snapshot give the last");
        assertEquals("prv_1", last.path("preview").path("previewId").asText());
        assertEquals("Stock", last.path("workingConfig").path("name").asText());
        assertEquals(5, last.path("preview").path("rows").path(0).path("qty").asInt());
    }

    @Test
    void aFailedTurnEndsInRunErrorAndNothingAfterIt() throws Exception {
        mapper.start(null);
        mapper.emit(new AgentEvent.TextStarted("txt_1"));
        mapper.emit(new AgentEvent.TextDelta("txt_1", "Half"));
        mapper.emit(new AgentEvent.Failed("The model service is unavailable."));
        mapper.emit(new AgentEvent.Stopped(StopReason.MODEL_ERROR, TokenUsage.NONE));
        mapper.finish(List.of(), List.of(), List.of());
        assertEquals(List.of("RUN_STARTED", "STATE_SNAPSHOT", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT",
                "TEXT_MESSAGE_END", "RUN_ERROR"), types());
        JsonNode error = events().getLast();
        assertEquals("The model service is unavailable.", error.path("message").asText());
        assertEquals("unavailable", error.path("code").asText());
    }

    @Test
    void aFrontendToolCallEndsTheRunNamingItAsPendingAndAStoppedTurnIsCancelled() throws Exception {
        mapper.start("run_0");
        mapper.emit(new AgentEvent.ToolCallReady("c9", "show_toast", Json.object().put("message", "hi")));
        mapper.emit(new AgentEvent.Stopped(StopReason.PAUSED, TokenUsage.NONE));
        mapper.finish(List.of(), List.of("c9"), null);
        List<JsonNode> events = events();
        assertEquals("run_0", events.getFirst().path("parentRunId").asText());
        assertEquals("{\"message\":\"hi\"}", events.get(3).path("delta").asText(), "a call never streamed is sent whole");
        assertEquals("{\"type\":\"success\",\"pendingToolCallIds\":[\"c9\"]}", events.getLast().path("outcome").toString());

        InMemoryResponseStream other = new InMemoryResponseStream();
        AgUiEventMapper stopped = new AgUiEventMapper(new AgUiEventStream(other), "th_1", "run_2", new SharedState(null, null), true, new StopSignal());
        stopped.start(null);
        stopped.emit(new AgentEvent.Stopped(StopReason.USER_STOPPED, TokenUsage.NONE));
        stopped.finish(List.of(), List.of(), null);
        assertTrue(other.body().endsWith("\"outcome\":{\"type\":\"cancelled\"}}\n\n"), other.body());
    }

    @Test
    void aSettledPreviewLeavesTheStateAtOnce() throws Exception {
        ObjectNode config = Json.objectLiteral("{\"name\":\"Stock\"}");
        AgUiEventMapper resumed = new AgUiEventMapper(stream, "th_1", "run_2",
                new SharedState(config, SharedState.json(preview())), true, new StopSignal());
        resumed.start(null);
        resumed.result("ap_1", Json.object().put("configId", "cfg_1").put("version", 1));
        resumed.previewSettled();
        List<JsonNode> events = events();
        assertEquals("prv_1", events.get(1).path("snapshot").path("preview").path("previewId").asText());
        assertEquals("[{\"op\":\"replace\",\"path\":\"/preview\",\"value\":null}]", events.get(3).path("delta").toString());
        assertEquals("ap_1", events.get(2).path("toolCallId").asText());
    }
}
