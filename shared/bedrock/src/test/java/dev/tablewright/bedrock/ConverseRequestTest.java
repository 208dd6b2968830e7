package dev.tablewright.bedrock;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.agent.model.ModelMessage;
import dev.tablewright.agent.model.ModelRequest;
import dev.tablewright.agent.model.ModelTool;
import dev.tablewright.agent.model.ToolCallRequest;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Converse body Bedrock accepts, whatever the history: one rule of {@link ConverseRequest} per test. */
class ConverseRequestTest {

    private static final ModelTool TOOL = new ModelTool("apply_column_change", "Adds a column",
            Json.objectLiteral("{\"type\":\"object\"}"));

    private static JsonNode body(List<ModelMessage> messages, List<ModelTool> tools) {
        return ConverseRequest.body(new ModelRequest(messages, tools, 512, Instant.now().plusSeconds(60), null));
    }

    private static ModelMessage.Assistant calling(String id, String arguments) {
        return new ModelMessage.Assistant("", List.of(new ToolCallRequest(id, "apply_column_change", arguments)));
    }

    @Test
    void systemMessagesBecomeSystemBlocksAndToolsTheToolConfig() {
        JsonNode body = body(List.of(new ModelMessage.System("be brief"), new ModelMessage.System(" "), new ModelMessage.User("hi")), List.of(TOOL));
        assertEquals("[{\"text\":\"be brief\"}]", body.path("system").toString(), "a blank system message is left out");
        assertEquals(512, body.path("inferenceConfig").path("maxTokens").asInt());
        JsonNode spec = body.path("toolConfig").path("tools").path(0).path("toolSpec");
        assertEquals("apply_column_change", spec.path("name").asText());
        assertEquals("object", spec.path("inputSchema").path("json").path("type").asText());
        assertEquals("[{\"role\":\"user\",\"content\":[{\"text\":\"hi\"}]}]", body.path("messages").toString());
    }

    @Test
    void aToolCallAndItsResultPairUpAndAFailedResultIsMarkedAsError() {
        JsonNode messages = body(List.of(new ModelMessage.User("add city"), calling("call.1", "{\"column\":\"city\"}"),
                new ModelMessage.ToolResult("call.1", "{\"error\":{\"code\":\"unknown_column\"}}")), List.of(TOOL)).path("messages");
        assertEquals(3, messages.size());
        JsonNode use = messages.path(1).path("content").path(0).path("toolUse");
        assertEquals("call_1", use.path("toolUseId").asText(), "an id Bedrock accepts");
        assertEquals("city", use.path("input").path("column").asText());
        JsonNode result = messages.path(2).path("content").path(0).path("toolResult");
        assertEquals("call_1", result.path("toolUseId").asText());
        assertEquals("error", result.path("status").asText());
        assertEquals("unknown_column", result.path("content").path(0).path("json").path("error").path("code").asText());
    }

    @Test
    void aCallWithoutResultGetsAnErrorResultAndAResultWithoutCallBecomesText() {
        JsonNode messages = body(List.of(new ModelMessage.User("go"), calling("c1", "not json"),
                new ModelMessage.User("and?"), new ModelMessage.ToolResult("ghost", "plain answer")), List.of(TOOL)).path("messages");
        assertEquals("{}", messages.path(1).path("content").path(0).path("toolUse").path("input").toString(), "arguments that are no object: {}");
        JsonNode next = messages.path(2).path("content");
        assertEquals("c1", next.path(0).path("toolResult").path("toolUseId").asText(), "the result comes first in the next message");
        assertEquals(ConverseRequest.MISSING_RESULT, Json.write(next.path(0).path("toolResult").path("content").path(0).path("json")));
        assertFalse(next.toString().contains("\"toolUseId\":\"ghost\""), next.toString());
        assertTrue(next.toString().contains("plain answer"), next.toString());
    }

    @Test
    void aHistoryStartingWithTheAssistantGetsAUserNoteAndRolesMerge() {
        JsonNode messages = body(List.of(new ModelMessage.Assistant("earlier answer", List.of()), new ModelMessage.User("one"),
                new ModelMessage.User("two"), new ModelMessage.User(" ")), List.of()).path("messages");
        assertEquals("user", messages.path(0).path("role").asText());
        assertEquals(ConverseRequest.EARLIER_MESSAGES_NOTE, messages.path(0).path("content").path(0).path("text").asText());
        assertEquals("assistant", messages.path(1).path("role").asText());
        assertEquals("[{\"text\":\"one\"},{\"text\":\"two\"}]", messages.path(2).path("content").toString(),
                "consecutive user messages merged, the blank one left out");
        assertEquals(3, messages.size());
    }

    @Test
    void withoutToolsOfferedCallsAndResultsAreKeptAsText() {
        JsonNode body = body(List.of(new ModelMessage.User("go"), calling("c1", "{\"a\":1}"), new ModelMessage.ToolResult("c1", "{\"ok\":true}")), List.of());
        assertFalse(body.has("toolConfig"));
        assertFalse(body.toString().contains("toolUse"), body.toString());
        assertEquals("[called apply_column_change with {\"a\":1}]", body.path("messages").path(1).path("content").path(0).path("text").asText());
        assertEquals("[tool result] {\"ok\":true}", body.path("messages").path(2).path("content").path(0).path("text").asText());
    }

    @Test
    void toolUseIdsAreCleanedAndCut() {
        assertEquals("call", ConverseRequest.toolUseId(""));
        assertEquals("a_b-c", ConverseRequest.toolUseId("a:b-c"));
        assertEquals(64, ConverseRequest.toolUseId("x".repeat(100)).length());
    }
}
