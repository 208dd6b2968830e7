package dev.tablewright.bedrock;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;
import software.amazon.awssdk.eventstream.HeaderValue;
import software.amazon.awssdk.eventstream.Message;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * ConverseStream's frames as Bedrock writes them (AWS event-stream framing, JSON payloads): what the SnapStart
 * priming answers itself with and what a stand-in for Bedrock sends.
 */
public final class ConverseStreamEvents {

    public static final String CONTENT_TYPE = "application/vnd.amazon.eventstream";

    private ConverseStreamEvents() {
    }

    /** An event frame: {@code :event-type} {@code messageStart}, {@code contentBlockDelta}, {@code metadata}, ... */
    public static byte[] event(String eventType, ObjectNode payload) {
        Map<String, HeaderValue> headers = new LinkedHashMap<>();
        headers.put(":event-type", HeaderValue.fromString(eventType));
        headers.put(":content-type", HeaderValue.fromString("application/json"));
        headers.put(":message-type", HeaderValue.fromString("event"));
        return frame(headers, Json.write(payload));
    }

    /** An exception frame mid-stream: {@code :exception-type} {@code modelStreamErrorException}, {@code throttlingException}, ... */
    public static byte[] exception(String exceptionType, String message) {
        Map<String, HeaderValue> headers = new LinkedHashMap<>();
        headers.put(":exception-type", HeaderValue.fromString(exceptionType));
        headers.put(":content-type", HeaderValue.fromString("application/json"));
        headers.put(":message-type", HeaderValue.fromString("exception"));
        return frame(headers, Json.write(Json.object().put("message", message)));
    }

    private static byte[] frame(Map<String, HeaderValue> headers, String payload) {
        ByteBuffer buffer = new Message(headers, payload.getBytes(StandardCharsets.UTF_8)).toByteBuffer();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }
}
