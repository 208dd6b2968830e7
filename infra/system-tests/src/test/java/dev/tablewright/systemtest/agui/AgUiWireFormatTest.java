package dev.tablewright.systemtest.agui;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.agent.AgentEvent;
import dev.tablewright.agent.Preview;
import dev.tablewright.agent.StopReason;
import dev.tablewright.agent.StopSignal;
import dev.tablewright.agent.model.TokenUsage;
import dev.tablewright.agui.AgUiEventMapper;
import dev.tablewright.agui.AgUiEventStream;
import dev.tablewright.agui.Interrupts;
import dev.tablewright.agui.SharedState;
import dev.tablewright.http.stream.InMemoryResponseStream;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.FieldType;
import dev.tablewright.toolcontract.InputField;
import dev.tablewright.toolcontract.UserInputRequirement;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The door's wire format read by {@code @ag-ui/core} 1.0's own schemas and {@code @ag-ui/client}'s own ordering
 * rules ({@code verifyEvents}): a run that builds a table and ends in the keep interrupt, one that asks for input,
 * a frontend tool's call, a stopped run and a failed one.
 */
class AgUiWireFormatTest {

    final InMemoryResponseStream response = new InMemoryResponseStream();
    final AgUiEventMapper mapper = new AgUiEventMapper(new AgUiEventStream(response), "th_1", "run_1",
            new SharedState(null, null), true, new StopSignal());

    static void assertAccepted(JsonNode checked) {
        assertEquals("[]", checked.path("invalid").toString(), "every event valid against @ag-ui/core's schemas: " + checked.path("types"));
        assertTrue(checked.path("verifyError").isNull(), "in the order @ag-ui/client accepts: " + checked.path("verifyError") + " " + checked.path("types"));
        for (JsonNode s : checked.path("states")) {
            assertTrue(s.path("equal").isNull() || s.path("equal").asBoolean(), "the deltas applied give the next snapshot: " + s);
        }
    }

    @Test
    void aTurnThatBuildsATableAndEndsInTheKeepInterruptIsAValidRun() throws Exception {
        mapper.start(null);
        mapper.emit(new AgentEvent.TurnStarted());
        mapper.emit(new AgentEvent.StepStarted());
        mapper.emit(new AgentEvent.TextStarted("txt_1"));
        mapper.emit(new AgentEvent.TextDelta("txt_1", "Building it."));
        mapper.emit(new AgentEvent.ToolCallStarted("c1", "preview_table_config"));
        mapper.emit(new AgentEvent.ToolCallArgumentDelta("c1", "{\"description\":"));
        mapper.emit(new AgentEvent.ToolCallArgumentDelta("c1", "\"Stock\"}"));
        mapper.emit(new AgentEvent.ToolCallReady("c1", "preview_table_config", Json.object().put("description", "Stock")));
        mapper.emit(new AgentEvent.ToolResult("c1", "preview_table_config", Json.object().put("valid", true)));
        mapper.emit(new AgentEvent.WorkingConfigChanged(Json.objectLiteral("{\"name\":\"Stock\",\"data_source\":[{\"table\":\"stock\"}]}")));
        Preview preview = Preview.of(Json.objectLiteral("{\"previewId\":\"prv_1\",\"baseVersion\":null,\"description\":\"A new table.\","
                + "\"config\":{\"name\":\"Stock\",\"data_source\":[{\"table\":\"stock\"}]},\"rows\":[{\"qty\":5}],\"expiresAt\":\"2026-12-01T10:00:00Z\"}"));
        mapper.emit(new AgentEvent.PreviewReady("c1", preview));
        mapper.emit(new AgentEvent.StepFinished());
        mapper.emit(new AgentEvent.Stopped(StopReason.COMPLETED, new TokenUsage(10, 2)));
        mapper.issuedCall("ap_1", "accept_preview", Json.object().put("previewId", "prv_1"));
        mapper.finish(List.of(Interrupts.keepPreview("ap_1", "ap_1", preview)), List.of(), List.of(
                Json.objectLiteral("{\"id\":\"m1\",\"role\":\"user\",\"content\":\"stock\"}"),
                Json.objectLiteral("{\"id\":\"txt_1\",\"role\":\"assistant\",\"content\":\"Building it.\",\"toolCalls\":"
                        + "[{\"id\":\"ap_1\",\"type\":\"function\",\"function\":{\"name\":\"accept_preview\",\"arguments\":\"{}\"}}]}")));

        JsonNode checked = AgUiClient.validate(response.body());
        assertAccepted(checked);
        assertEquals("RUN_STARTED", checked.path("types").path(0).asText());
        JsonNode last = checked.path("events").get(checked.path("events").size() - 1);
        assertEquals("interrupt", last.path("outcome").path("type").asText(), last.toString());
        assertEquals(2, checked.path("states").size());
    }

    @Test
    void aRunThatAsksForInputAFrontendToolAndAFailureAreValidToo() throws Exception {
        UserInputRequirement form = new UserInputRequirement("Which database?", List.of(
                new InputField("database", "Database", null, FieldType.SELECT, true, null, null, null, null, List.of("production", "staging"), null),
                new InputField("password", null, null, FieldType.SECRET, true, null, null, null, null, null, null)), false, null);
        mapper.start(null);
        mapper.emit(new AgentEvent.ToolCallStarted("c1", "search_database_schema"));
        mapper.emit(new AgentEvent.ToolCallReady("c1", "search_database_schema", Json.object()));
        mapper.emit(new AgentEvent.InputRequested("req_1", "c1", "search_database_schema", form));
        mapper.emit(new AgentEvent.ToolCallReady("c2", "show_toast", Json.object().put("message", "hi")));
        mapper.emit(new AgentEvent.Stopped(StopReason.PAUSED, TokenUsage.NONE));
        mapper.finish(List.of(Interrupts.inputRequired("req_1", "c1", "search_database_schema", form, Instant.parse("2026-12-01T10:00:00Z"))),
                List.of(), null);
        assertAccepted(AgUiClient.validate(response.body()));

        InMemoryResponseStream pending = new InMemoryResponseStream();
        AgUiEventMapper toast = new AgUiEventMapper(new AgUiEventStream(pending), "th_1", "run_2", new SharedState(null, null), true, new StopSignal());
        toast.start("run_1");
        toast.emit(new AgentEvent.ToolCallReady("c2", "show_toast", Json.object().put("message", "hi")));
        toast.emit(new AgentEvent.Stopped(StopReason.PAUSED, TokenUsage.NONE));
        toast.finish(List.of(), List.of("c2"), null);
        assertAccepted(AgUiClient.validate(pending.body()));

        InMemoryResponseStream failed = new InMemoryResponseStream();
        AgUiEventMapper error = new AgUiEventMapper(new AgUiEventStream(failed), "th_1", "run_3", new SharedState(null, null), true, new StopSignal());
        error.start(null);
        error.emit(new AgentEvent.TextStarted("t"));
        error.emit(new AgentEvent.TextDelta("t", "Hal"));
        error.emit(new AgentEvent.Failed("The model service is unavailable."));
        error.emit(new AgentEvent.Stopped(StopReason.MODEL_ERROR, TokenUsage.NONE));
        JsonNode checked = AgUiClient.validate(failed.body());
        assertEquals("[]", checked.path("invalid").toString());
        assertEquals("RUN_ERROR", checked.path("types").get(checked.path("types").size() - 1).asText());
    }
}
