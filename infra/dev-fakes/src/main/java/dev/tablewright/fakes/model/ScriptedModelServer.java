package dev.tablewright.fakes.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.fakes.http.HttpRequest;
import dev.tablewright.fakes.http.HttpResponder;
import dev.tablewright.fakes.http.LoopbackHttpServer;
import dev.tablewright.json.Json;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * An OpenAI-compatible model that replays {@link ScriptedTurn}s: {@code POST /v1/chat/completions} (also
 * {@code /chat/completions}), streamed as Server-Sent Events of {@code chat.completion.chunk}s when the request
 * says {@code "stream": true}, else one {@code chat.completion}. Each request takes the next scripted turn; with
 * none left it answers 500 {@code "scripted model: no turn left"}, so a test that sends one request too many
 * fails loudly. Every request is recorded ({@link #requests()}) with how its answer went.
 *
 * <p>Point any OpenAI client at {@link #baseUrl()} (it ends in {@code /v1}); the API key is not checked.
 */
public final class ScriptedModelServer extends ScriptedModel {

    private static final int KEPT_WHEN_ANSWERING = 200;

    private final AtomicInteger completionIds = new AtomicInteger();
    /** When set, every request is answered by this instead of the queue (the offline demo model decides per request). */
    private final Function<RecordedRequest, ScriptedTurn> responder;

    private ScriptedModelServer(int port, ModelScript script, Function<RecordedRequest, ScriptedTurn> responder, String name)
            throws IOException {
        super("the scripted model", responder == null ? Integer.MAX_VALUE : KEPT_WHEN_ANSWERING, script);
        this.responder = responder;
        serve(LoopbackHttpServer.start(port, name, this::handle));
    }

    /**
     * A server whose every answer {@code responder} computes from the request it got, rather than taking the next
     * queued turn: the same wire format, streamed or not, for a model that decides by rules. It keeps only the latest
     * {@value #KEPT_WHEN_ANSWERING} requests in {@link #requests()}.
     */
    public static ScriptedModelServer answering(int port, String name, Function<RecordedRequest, ScriptedTurn> responder) throws IOException {
        return new ScriptedModelServer(port, new ModelScript(List.of()), java.util.Objects.requireNonNull(responder), name);
    }

    public static ScriptedModelServer start() throws IOException {
        return start(0, new ModelScript(List.of()));
    }

    public static ScriptedModelServer start(int port, ModelScript script) throws IOException {
        return new ScriptedModelServer(port, script, null, "scripted-model");
    }

    /** {@code http://127.0.0.1:<port>/v1}: the base URL for an OpenAI client. */
    public String baseUrl() {
        return loopbackUrl() + "/v1";
    }

    private void handle(HttpRequest request, HttpResponder response) throws Exception {
        String path = request.path();
        if (!request.method().equals("POST") || !(path.equals("/v1/chat/completions") || path.equals("/chat/completions"))) {
            request.body();
            error(response, 404, "not found: " + request.method() + " " + path, "invalid_request_error", Map.of());
            return;
        }
        JsonNode body;
        try {
            body = Json.parse(request.bodyText());
        } catch (IOException e) {
            error(response, 400, "request body is not JSON", "invalid_request_error", Map.of());
            return;
        }
        RecordedRequest recorded = record(path, request.headers(), body);
        play(responder != null ? responder.apply(recorded) : nextTurn(), recorded, response);
    }

    @Override
    String noTurnLeft() {
        return "scripted model: no turn left";
    }

    @Override
    void sendError(HttpResponder response, int status, String message, Map<String, String> headers) throws IOException {
        error(response, status, message, status == 429 ? "rate_limit_error" : "server_error", headers);
    }

    @Override
    void complete(ScriptedTurn.Completion turn, RecordedRequest request, HttpResponder response) throws IOException, InterruptedException {
        if (request.streamed()) {
            stream(turn, request, response);
        } else {
            whole(turn, request, response);
        }
    }

    private void stream(ScriptedTurn.Completion turn, RecordedRequest request, HttpResponder response) throws IOException, InterruptedException {
        RecordedRequest.Answer answer = request.answer();
        String id = "chatcmpl-scripted-" + completionIds.incrementAndGet();
        long created = System.currentTimeMillis() / 1000;
        String model = request.model().isEmpty() ? "scripted" : request.model();
        boolean headersSent = false;
        boolean roleSent = false;
        for (ScriptedTurn.Step step : turn.steps()) {
            switch (step) {
                case ScriptedTurn.Step.Pause p -> pause(p, response);
                case ScriptedTurn.Step.Cut c -> {
                    cut(response, answer, headersSent);
                    return;
                }
                case ScriptedTurn.Step.StreamException x -> {
                    cut(response, answer, headersSent);
                    return;
                }
                default -> {
                    if (!headersSent) {
                        answer.firstByte();
                        response.startChunked(200, sseHeaders());
                        headersSent = true;
                    }
                    ObjectNode delta = Json.object();
                    if (!roleSent) {
                        delta.put("role", "assistant");
                        roleSent = true;
                    }
                    switch (step) {
                        case ScriptedTurn.Step.Text t -> delta.put("content", t.delta());
                        case ScriptedTurn.Step.ToolCallStart s -> {
                            ObjectNode call = delta.putArray("tool_calls").addObject();
                            call.put("index", s.index()).put("id", s.id()).put("type", "function");
                            call.putObject("function").put("name", s.name()).put("arguments", "");
                        }
                        case ScriptedTurn.Step.ToolArguments a -> {
                            ObjectNode call = delta.putArray("tool_calls").addObject();
                            call.put("index", a.index());
                            call.putObject("function").put("arguments", a.fragment());
                        }
                        default -> throw new IllegalStateException("unhandled step " + step);
                    }
                    event(response, chunk(id, created, model, delta, null));
                    answer.contentSent();
                }
            }
        }
        if (!headersSent) {
            answer.firstByte();
            response.startChunked(200, sseHeaders());
        }
        ObjectNode last = Json.object();
        if (!roleSent) {
            last.put("role", "assistant");
        }
        event(response, chunk(id, created, model, last, finishReason(turn)));
        boolean includeUsage = request.body().path("stream_options").path("include_usage").asBoolean(false);
        if (includeUsage && turn.usage() != null) {
            ObjectNode usageChunk = chunkBase(id, created, model);
            usageChunk.putArray("choices");
            usageChunk.set("usage", usage(turn.usage()));
            event(response, usageChunk);
        }
        response.chunk("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
        response.endChunked();
        answer.end("completed");
    }

    private static void cut(HttpResponder response, RecordedRequest.Answer answer, boolean headersSent) throws IOException {
        if (!headersSent) {
            response.startChunked(200, sseHeaders());
        }
        response.abort();
        answer.end("cut");
    }

    private void whole(ScriptedTurn.Completion turn, RecordedRequest request, HttpResponder response) throws IOException, InterruptedException {
        RecordedRequest.Answer answer = request.answer();
        StringBuilder text = new StringBuilder();
        Map<Integer, ObjectNode> calls = new TreeMap<>();
        for (ScriptedTurn.Step step : turn.steps()) {
            switch (step) {
                case ScriptedTurn.Step.Pause p -> pause(p);
                case ScriptedTurn.Step.Cut c -> {
                    response.abort();
                    answer.end("cut");
                    return;
                }
                case ScriptedTurn.Step.StreamException x -> {
                    response.abort();
                    answer.end("cut");
                    return;
                }
                case ScriptedTurn.Step.Text t -> text.append(t.delta());
                case ScriptedTurn.Step.ToolCallStart s -> {
                    ObjectNode call = Json.object().put("id", s.id()).put("type", "function");
                    call.putObject("function").put("name", s.name()).put("arguments", "");
                    calls.put(s.index(), call);
                }
                case ScriptedTurn.Step.ToolArguments a -> {
                    ObjectNode function = (ObjectNode) calls.computeIfAbsent(a.index(), i -> {
                        ObjectNode call = Json.object().put("id", "call_" + i).put("type", "function");
                        call.putObject("function").put("name", "").put("arguments", "");
                        return call;
                    }).get("function");
                    function.put("arguments", function.get("arguments").asText() + a.fragment());
                }
            }
        }
        ObjectNode completion = Json.object()
                .put("id", "chatcmpl-scripted-" + completionIds.incrementAndGet())
                .put("object", "chat.completion")
                .put("created", System.currentTimeMillis() / 1000)
                .put("model", request.model().isEmpty() ? "scripted" : request.model());
        ObjectNode choice = completion.putArray("choices").addObject();
        choice.put("index", 0);
        ObjectNode message = choice.putObject("message").put("role", "assistant");
        if (text.isEmpty() && !calls.isEmpty()) {
            message.putNull("content");
        } else {
            message.put("content", text.toString());
        }
        message.putNull("refusal");
        if (!calls.isEmpty()) {
            ArrayNode toolCalls = message.putArray("tool_calls");
            calls.values().forEach(toolCalls::add);
        }
        choice.putNull("logprobs");
        choice.put("finish_reason", finishReason(turn));
        if (turn.usage() != null) {
            completion.set("usage", usage(turn.usage()));
        }
        answer.firstByte();
        response.send(200, Map.of("Content-Type", "application/json"), Json.MAPPER.writeValueAsBytes(completion));
        answer.end("completed");
    }

    private static String finishReason(ScriptedTurn.Completion turn) {
        if (turn.finishReason() != null) {
            return turn.finishReason();
        }
        return turn.callsTools() ? "tool_calls" : "stop";
    }

    private static ObjectNode chunkBase(String id, long created, String model) {
        return Json.object().put("id", id).put("object", "chat.completion.chunk").put("created", created).put("model", model);
    }

    private static ObjectNode chunk(String id, long created, String model, ObjectNode delta, String finishReason) {
        ObjectNode chunk = chunkBase(id, created, model);
        ObjectNode choice = chunk.putArray("choices").addObject();
        choice.put("index", 0);
        choice.set("delta", delta);
        choice.putNull("logprobs");
        if (finishReason == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finishReason);
        }
        return chunk;
    }

    private static ObjectNode usage(ScriptedTurn.Usage usage) {
        return Json.object().put("prompt_tokens", usage.promptTokens()).put("completion_tokens", usage.completionTokens())
                .put("total_tokens", usage.promptTokens() + usage.completionTokens());
    }

    private static void event(HttpResponder response, ObjectNode json) throws IOException {
        byte[] data = Json.MAPPER.writeValueAsBytes(json);
        byte[] event = new byte[data.length + 8];
        System.arraycopy("data: ".getBytes(StandardCharsets.US_ASCII), 0, event, 0, 6);
        System.arraycopy(data, 0, event, 6, data.length);
        event[event.length - 2] = '\n';
        event[event.length - 1] = '\n';
        response.chunk(event);
    }

    private static Map<String, String> sseHeaders() {
        return Map.of("Content-Type", "text/event-stream", "Cache-Control", "no-cache");
    }

    private static void error(HttpResponder response, int status, String message, String type, Map<String, String> headers) throws IOException {
        ObjectNode body = Json.object();
        body.putObject("error").put("message", message).put("type", type).putNull("param").putNull("code");
        Map<String, String> all = new LinkedHashMap<>(headers);
        all.put("Content-Type", "application/json");
        response.send(status, all, Json.MAPPER.writeValueAsBytes(body));
    }
}
