package dev.tablewright.aisdk.stream;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.door.FramedStream;
import dev.tablewright.door.StreamFraming;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.json.Json;

import java.util.Map;
import java.util.function.Consumer;

/**
 * Writes the AI SDK UI message stream protocol v1 (what {@code useChat} reads): one Server-Sent Event
 * {@code data: {json}\n\n} per part, flushed per part, ending with {@code data: [DONE]}.
 *
 * <p>Part shapes follow the {@code UIMessageChunk} type of the {@code ai} package (v6): field names such as
 * {@code messageId}, {@code id}, {@code delta}, {@code toolCallId}, {@code inputTextDelta}, {@code errorText}
 * must match exactly, or the client drops the part.
 *
 * <p>The HTTP response is started lazily (200 and {@link #HEADERS}) by the first part ({@link FramedStream}), so a
 * turn can still answer a plain 4xx through {@link HttpResponseStream#sendJson} until then. Not thread-safe.
 */
public final class UiMessageStreamWriter {

    /** The headers {@code toUIMessageStreamResponse()} sends. */
    public static final Map<String, String> HEADERS = Map.of(
            "content-type", "text/event-stream",
            "cache-control", "no-cache",
            "connection", "keep-alive",
            "x-vercel-ai-ui-message-stream", "v1",
            "x-accel-buffering", "no");

    private static final String DONE = "data: [DONE]\n\n";

    private final FramedStream out;
    private boolean done;

    public UiMessageStreamWriter(HttpResponseStream response) {
        this.out = new FramedStream(response, FRAMING);
    }

    /** Sees every part as it is written (e.g. to assemble the message for storage), whether or not the client still reads. */
    public void observe(Consumer<ObjectNode> observer) {
        out.observe(observer);
    }

    public HttpResponseStream response() {
        return out.response();
    }

    public boolean isClientGone() {
        return out.isClientGone();
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

    // ---- text ----

    public void textStart(String id) {
        write(new UiChunk.TextStart(id));
    }

    public void textDelta(String id, String delta) {
        write(new UiChunk.TextDelta(id, delta));
    }

    public void textEnd(String id) {
        write(new UiChunk.TextEnd(id));
    }

    // ---- end ----

    /** Writes the {@code [DONE]} marker and closes the response. Idempotent. */
    public void done() {
        if (done) {
            return;
        }
        done = true;
        out.end(DONE);
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
        out.write(part);
    }

    /**
     * The UI message stream's framing, for the door kit's recorder and replay ({@link dev.tablewright.door.TurnStreams}):
     * a part as {@code data: {json}\n\n}, the turn's end its {@code finish} part; a replay whose turn went away without
     * one gets {@code finish} ({@code other}), and every replay {@code [DONE]}.
     */
    public static final StreamFraming FRAMING = new StreamFraming() {
        private static final String FINISH = "data: {\"type\":\"finish\"";

        @Override
        public Map<String, String> headers() {
            return HEADERS;
        }

        @Override
        public String frame(ObjectNode part) {
            try {
                return "data: " + Json.MAPPER.writeValueAsString(part) + "\n\n";
            } catch (JsonProcessingException e) {
                return null; // the stream refuses the part (FramedStream)
            }
        }

        @Override
        public boolean ends(String frames) {
            return frames.contains(FINISH);
        }

        @Override
        public void close(HttpResponseStream response, boolean ended) {
            UiMessageStreamWriter ui = new UiMessageStreamWriter(response);
            if (!ended) {
                ui.write(new UiChunk.Finish(UiChunk.FinishReason.OTHER, null)); // the turn went away without its own
            }
            ui.done();
        }
    };
}
