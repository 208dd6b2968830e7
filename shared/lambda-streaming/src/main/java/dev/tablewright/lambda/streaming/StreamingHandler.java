package dev.tablewright.lambda.streaming;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.http.stream.HttpResponseStream;

/**
 * The handler of a response-streaming function URL ({@code InvokeMode: RESPONSE_STREAM}): takes the function URL
 * event (payload format 2.0: {@code body}, {@code isBase64Encoded}, {@code headers}, {@code requestContext}) and
 * answers through {@code response}, piece by piece. The chat turn ({@code ChatFunction}, a UI message stream) and
 * the MCP server ({@code McpFunction}, Streamable HTTP) are the two.
 *
 * <p>{@link StreamingRuntime} creates the class named in {@code _HANDLER} (with a public no-argument constructor,
 * once per execution environment, so its constructor is the init phase). An exception thrown before the response
 * started fails the invocation; one thrown after it is reported in the error trailers. A handler should rather end
 * its stream itself in its protocol's terms (the chat's {@code error} part and {@code finish}).
 */
public interface StreamingHandler {

    void handle(JsonNode functionUrlEvent, HttpResponseStream response) throws Exception;

    /**
     * The entry point the streaming runtime calls, with the invocation's request id and deadline (so the handler
     * can stop cleanly before Lambda stops it). By default the invocation is ignored.
     */
    default void handle(JsonNode functionUrlEvent, HttpResponseStream response, LambdaInvocation invocation) throws Exception {
        handle(functionUrlEvent, response);
    }
}
