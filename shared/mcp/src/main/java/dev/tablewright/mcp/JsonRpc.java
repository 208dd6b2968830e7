package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.json.Json;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * JSON-RPC 2.0 as MCP's Streamable HTTP carries it: one message per POST body read ({@link #decode}), results and
 * errors written, and a message sent as a whole HTTP answer. Knows nothing of sessions, methods or tools.
 */
final class JsonRpc {

    static final int PARSE_ERROR = -32700;
    static final int INVALID_REQUEST = -32600;
    static final int METHOD_NOT_FOUND = -32601;
    static final int INVALID_PARAMS = -32602;
    static final int SERVER_ERROR = -32000;

    private JsonRpc() {
    }

    /**
     * One decoded message.
     *
     * @param id     the request's (or response's) id when it is a string or an integer; null otherwise
     * @param method null for a response
     * @param params the {@code params} member (a missing node when absent)
     * @param body   the whole message
     */
    record Message(JsonNode id, String method, JsonNode params, JsonNode body) {

        boolean hasId() {
            return id != null;
        }

        /** The client's answer to a request of ours ({@code result} or {@code error} with an id, no method). */
        boolean isResponse() {
            return method == null && hasId() && (body.has("result") || body.has("error"));
        }
    }

    /** A body that is no JSON-RPC message: answered with {@code 400} and this error. */
    static final class Malformed extends Exception {
        private final transient ObjectNode error;

        Malformed(ObjectNode error) {
            super(error.path("error").path("message").asText(), null, false, false);
            this.error = error;
        }

        ObjectNode error() {
            return error;
        }
    }

    static Message decode(String body) throws Malformed {
        JsonNode message;
        try {
            message = Json.parse(body);
        } catch (Exception e) {
            throw new Malformed(error(null, PARSE_ERROR, "Parse error: the body is not JSON"));
        }
        if (message == null || !message.isObject()) {
            throw new Malformed(error(null, INVALID_REQUEST, "Invalid request: one JSON-RPC message object per POST (no batches)"));
        }
        JsonNode idNode = message.get("id");
        JsonNode id = idNode != null && (idNode.isTextual() || idNode.isIntegralNumber()) ? idNode : null;
        if (!"2.0".equals(message.path("jsonrpc").asText(null))) {
            throw new Malformed(error(id, INVALID_REQUEST, "Invalid request: jsonrpc must be \"2.0\""));
        }
        JsonNode methodNode = message.get("method");
        if (methodNode != null && !methodNode.isTextual()) {
            throw new Malformed(error(id, INVALID_REQUEST, "Invalid request: method must be a string"));
        }
        return new Message(id, methodNode == null ? null : methodNode.textValue(), message.path("params"), message);
    }

    static ObjectNode result(JsonNode id, JsonNode result) {
        ObjectNode o = Json.object().put("jsonrpc", "2.0");
        o.set("id", id);
        o.set("result", result);
        return o;
    }

    static ObjectNode error(JsonNode id, int code, String message) {
        ObjectNode o = Json.object().put("jsonrpc", "2.0");
        o.set("id", id == null ? Json.MAPPER.nullNode() : id);
        o.putObject("error").put("code", code).put("message", message);
        return o;
    }

    /** An error with a {@code data} member (null: none). */
    static ObjectNode error(JsonNode id, int code, String message, JsonNode data) {
        ObjectNode o = error(id, code, message);
        if (data != null) {
            ((ObjectNode) o.path("error")).set("data", data);
        }
        return o;
    }

    /** {@code 202 Accepted} with no body: a notification or a response of the client's. */
    static void accepted(HttpResponseStream response) {
        response.start(202, Map.of());
        response.close();
    }

    /** One JSON document as the whole answer. */
    static void send(HttpResponseStream response, int status, Map<String, String> headers, JsonNode body) {
        Map<String, String> all = new LinkedHashMap<>(headers);
        all.put("content-type", "application/json");
        response.start(status, all);
        response.write(Json.write(body).getBytes(StandardCharsets.UTF_8));
        response.flush();
        response.close();
    }

    /** A value echoed into a message, cut to a readable length. */
    static String clip(String value) {
        return value.length() <= 60 ? value : value.substring(0, 60) + "…";
    }
}
