package dev.tablewright.mcp;

/** A request the method refuses with a JSON-RPC error (HTTP 200, the error in the body). */
final class McpError extends Exception {

    private final int code;

    McpError(int code, String message) {
        super(message, null, false, false);
        this.code = code;
    }

    int code() {
        return code;
    }
}
