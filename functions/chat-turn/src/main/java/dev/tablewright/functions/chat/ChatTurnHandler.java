package dev.tablewright.functions.chat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.aisdk.stream.HttpResponseStream;

/**
 * One chat turn: takes the Lambda function URL event (payload format 2.0: {@code body}, {@code isBase64Encoded},
 * {@code headers}, {@code requestContext}) and answers through {@code response}, usually as a UI message stream
 * ({@link dev.tablewright.aisdk.stream.UiMessageStreamWriter}).
 *
 * <p>The streaming runtime names the implementation in {@code _HANDLER} (a class with a public no-argument
 * constructor, created once per execution environment, so its constructor is the init phase). An exception
 * thrown before the response started fails the invocation; one thrown after it is reported in the error
 * trailers. A turn should rather end its stream itself with an {@code error} part and {@code finish}.
 */
public interface ChatTurnHandler {

    void handle(JsonNode functionUrlEvent, HttpResponseStream response) throws Exception;

    /**
     * The entry point the streaming runtime calls, with the invocation's request id and deadline (so the turn can
     * stop cleanly before Lambda stops it). By default the invocation is ignored.
     */
    default void handle(JsonNode functionUrlEvent, HttpResponseStream response, LambdaInvocation invocation) throws Exception {
        handle(functionUrlEvent, response);
    }
}
