package dev.tablewright.aisdk.stream;

import dev.tablewright.http.stream.HttpResponseStream;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Writes the AI SDK UI message stream protocol v1 (what {@code useChat} reads): one Server-Sent Event
 * {@code data: {json}\n\n} per part, flushed per part, ending with {@code data: [DONE]}.
 *
 * <p>Part shapes follow the {@code UIMessageChunk} type of the {@code ai} package (v6): field names such as
 * {@code messageId}, {@code id}, {@code delta}, {@code toolCallId}, {@code inputTextDelta}, {@code errorText}
 * must match exactly, or the client drops the part.
 *
 * <p>The HTTP response is started lazily (200 and {@link #HEADERS}) by the first part, so a turn can still
 * answer a plain 4xx through {@link HttpResponseStream#sendJson} until then. Not thread-safe: one turn writes.
 */
public final class UiMessageStreamWriter {

    /** The headers {@code toUIMessageStreamResponse()} sends. */
    public static final Map<String, String> HEADERS = Map.of(
            "content-type", "text/event-stream",
            "cache-control", "no-cache",
            "connection", "keep-alive",
            "x-vercel-ai-ui-message-stream", "v1",
            "x-accel-buffering", "no");

    private static final byte[] DATA = "data: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] END_OF_EVENT = "\n\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DONE = "data: [DONE]\n\n".getBytes(StandardCharsets.US_ASCII);

    private final HttpResponseStream response;
    private final java.util.List<java.util.function.Consumer<ObjectNode>> observers = new java.util.ArrayList<>();
    private boolean done;

    public UiMessageStreamWriter(HttpResponseStream response) {
        this.response = response;
    }

    /** Sees every part as it is written (e.g. to assemble the message for storage), whether or not the client still reads. */
    public void observe(java.util.function.Consumer<ObjectNode> observer) {
        observers.add(observer);
    }

    public HttpResponseStream response() {
        return response;
    }

    public boolean isClientGone() {
        return response.isClientGone();
    }

    // ---- message and steps ----

    public void start(String messageId) {
        write(new UiChunk.Start(messageId, null));
    }

    public void start(String messageId, JsonNode messageMetadata) {
        write(new UiChunk.Start(messageId, messageMetadata));
    }

    public void startStep() {
        write(new UiChunk.StartStep());
    }

    public void finishStep() {
        write(new UiChunk.FinishStep());
    }

    public void finish() {
        write(new UiChunk.Finish(null, null));
    }

    /** {@code finishReason} and {@code messageMetadata} may be null (then omitted). */
    public void finish(UiChunk.FinishReason finishReason, JsonNode messageMetadata) {
        write(new UiChunk.Finish(finishReason, messageMetadata));
    }

    public void messageMetadata(JsonNode messageMetadata) {
        write(new UiChunk.MessageMetadata(messageMetadata));
    }

    /** Shown to the user as the message's error; must be plain text with no secret or stack trace. */
    public void error(String errorText) {
        write(new UiChunk.Error(errorText));
    }

    public void abort(String reason) {
        write(new UiChunk.Abort(reason));
    }

    // ---- text and reasoning ----

    public void textStart(String id) {
        write(new UiChunk.TextStart(id));
    }

    public void textDelta(String id, String delta) {
        write(new UiChunk.TextDelta(id, delta));
    }

    public void textEnd(String id) {
        write(new UiChunk.TextEnd(id));
    }

    public void reasoningStart(String id) {
        write(new UiChunk.ReasoningStart(id));
    }

    public void reasoningDelta(String id, String delta) {
        write(new UiChunk.ReasoningDelta(id, delta));
    }

    public void reasoningEnd(String id) {
        write(new UiChunk.ReasoningEnd(id));
    }

    // ---- tools ----

    public void toolInputStart(String toolCallId, String toolName) {
        write(new UiChunk.ToolInputStart(toolCallId, toolName));
    }

    public void toolInputDelta(String toolCallId, String inputTextDelta) {
        write(new UiChunk.ToolInputDelta(toolCallId, inputTextDelta));
    }

    public void toolInputAvailable(String toolCallId, String toolName, JsonNode input) {
        write(new UiChunk.ToolInputAvailable(toolCallId, toolName, input));
    }

    /** The model's input could not be parsed or did not fit the tool's schema. */
    public void toolInputError(String toolCallId, String toolName, JsonNode input, String errorText) {
        write(new UiChunk.ToolInputError(toolCallId, toolName, input, errorText));
    }

    public void toolOutputAvailable(String toolCallId, JsonNode output) {
        write(new UiChunk.ToolOutputAvailable(toolCallId, output));
    }

    public void toolOutputError(String toolCallId, String errorText) {
        write(new UiChunk.ToolOutputError(toolCallId, errorText));
    }

    // ---- custom data ----

    /**
     * A custom {@code data-<name>} part, e.g. {@code data("table-config-preview", previewId, {...})}. Parts with
     * the same name and id replace each other on the client; {@code id} may be null.
     */
    public void data(String name, String id, JsonNode data) {
        write(new UiChunk.Data(name, id, data));
    }

    /** Like {@link #data} but not kept in the message history on the client. */
    public void transientData(String name, String id, JsonNode data) {
        write(new UiChunk.Data(name, id, data, true));
    }

    // ---- end ----

    /** Writes the {@code [DONE]} marker and closes the response. Idempotent. */
    public void done() {
        if (done) {
            return;
        }
        done = true;
        ensureStarted();
        response.write(DONE);
        response.flush();
        response.close();
    }

    public boolean isDone() {
        return done;
    }

    /** Writes one part. */
    public void write(UiChunk chunk) {
        write(chunk.toJson());
    }

    /** Writes one already-built part (for part types {@link UiChunk} does not name). */
    public void write(ObjectNode part) {
        if (done) {
            throw new IllegalStateException("the UI message stream is already done");
        }
        observers.forEach(o -> o.accept(part));
        byte[] json;
        try {
            json = Json.MAPPER.writeValueAsBytes(part);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("part is not serialisable: " + e.getOriginalMessage(), e);
        }
        ensureStarted();
        byte[] event = new byte[DATA.length + json.length + END_OF_EVENT.length];
        System.arraycopy(DATA, 0, event, 0, DATA.length);
        System.arraycopy(json, 0, event, DATA.length, json.length);
        System.arraycopy(END_OF_EVENT, 0, event, DATA.length + json.length, END_OF_EVENT.length);
        response.write(event);
        response.flush();
    }

    private void ensureStarted() {
        if (!response.isStarted()) {
            response.start(200, HEADERS);
        }
    }
}
