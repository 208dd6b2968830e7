package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.http.stream.InMemoryResponseStream;
import dev.tablewright.json.Json;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonRpcTest {

    @Test
    void aRequestANotificationAndAResponseDecode() throws Exception {
        JsonRpc.Message request = JsonRpc.decode("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\",\"params\":{\"cursor\":\"c\"}}");
        assertEquals(7, request.id().asInt());
        assertEquals("tools/list", request.method());
        assertEquals("c", request.params().path("cursor").asText());
        assertFalse(request.isResponse());

        JsonRpc.Message notification = JsonRpc.decode("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        assertFalse(notification.hasId());
        assertTrue(notification.params().isMissingNode());

        JsonRpc.Message response = JsonRpc.decode("{\"jsonrpc\":\"2.0\",\"id\":\"q1\",\"result\":{\"action\":\"accept\"}}");
        assertTrue(response.isResponse());
        assertEquals("q1", response.id().asText());
        assertFalse(JsonRpc.decode("{\"jsonrpc\":\"2.0\",\"id\":\"q1\"}").isResponse(), "no result, no error: no response");
    }

    @Test
    void anIdThatIsNeitherStringNorIntegerIsNoId() throws Exception {
        assertNull(JsonRpc.decode("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}").id());
        assertNull(JsonRpc.decode("{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"ping\"}").id());
    }

    @Test
    void whatIsNoMessageIsMalformedWithItsJsonRpcError() {
        JsonRpc.Malformed notJson = assertThrows(JsonRpc.Malformed.class, () -> JsonRpc.decode("{not json"));
        assertEquals(JsonRpc.PARSE_ERROR, notJson.error().path("error").path("code").asInt());
        assertTrue(notJson.error().get("id").isNull());

        JsonRpc.Malformed batch = assertThrows(JsonRpc.Malformed.class, () -> JsonRpc.decode("[{\"jsonrpc\":\"2.0\",\"method\":\"ping\"}]"));
        assertEquals(JsonRpc.INVALID_REQUEST, batch.error().path("error").path("code").asInt());
        assertTrue(batch.getMessage().contains("no batches"), batch.getMessage());

        JsonRpc.Malformed version = assertThrows(JsonRpc.Malformed.class, () -> JsonRpc.decode("{\"jsonrpc\":\"1.0\",\"id\":3,\"method\":\"ping\"}"));
        assertEquals(3, version.error().get("id").asInt(), "the id is echoed when it can be read");
        assertTrue(version.getMessage().contains("jsonrpc must be \"2.0\""));

        JsonRpc.Malformed method = assertThrows(JsonRpc.Malformed.class, () -> JsonRpc.decode("{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":5}"));
        assertEquals("x", method.error().get("id").asText());
        assertTrue(method.getMessage().contains("method must be a string"));
    }

    @Test
    void resultsAndErrorsAreWrittenAsJsonRpc() {
        JsonNode id = Json.MAPPER.getNodeFactory().numberNode(4);
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{\"ok\":true}}", Json.write(JsonRpc.result(id, Json.object().put("ok", true))));
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32601,\"message\":\"no such method\"}}",
                Json.write(JsonRpc.error(null, JsonRpc.METHOD_NOT_FOUND, "no such method")));
        assertEquals("res://x", JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "not found", Json.object().put("uri", "res://x"))
                .path("error").path("data").path("uri").asText());
        assertFalse(JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "bad", null).path("error").has("data"));
    }

    @Test
    void aMessageIsAWholeJsonAnswerAndANotificationIsAcceptedWithoutBody() {
        InMemoryResponseStream sent = new InMemoryResponseStream();
        JsonRpc.send(sent, 200, Map.of("mcp-session-id", "s1"), Json.object().put("a", 1));
        assertEquals(200, sent.statusCode());
        assertEquals("application/json", sent.headers().get("content-type"));
        assertEquals("s1", sent.headers().get("mcp-session-id"));
        assertEquals("{\"a\":1}", sent.body());
        assertEquals("closed", sent.ending().state());

        InMemoryResponseStream accepted = new InMemoryResponseStream();
        JsonRpc.accepted(accepted);
        assertEquals(202, accepted.statusCode());
        assertEquals("", accepted.body());
        assertEquals("closed", accepted.ending().state());
    }

    @Test
    void echoedValuesAreClipped() {
        assertEquals("short", JsonRpc.clip("short"));
        String clipped = JsonRpc.clip("h".repeat(100));
        assertEquals(61, clipped.length());
        assertTrue(clipped.endsWith("…"));
    }
}
