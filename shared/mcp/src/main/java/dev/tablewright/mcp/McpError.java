package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.JsonNode;

/** A request the method refuses with a JSON-RPC error (HTTP 200, the error in the body). */
final class McpError extends Exception {

    private final int code;
    private final transient JsonNode data;

    McpError(int code, String message) {
        this(code, message, null);
    }

    /** @param data the error's {@code data} member (e.g. the URI of a resource not found); null: none */
    McpError(int code, String message, JsonNode data) {
        super(message, null, false, false);
        this.code = code;
        this.data = data;
    }

    int code() {
        return code;
    }

    JsonNode data() {
        return data;
    }
}
