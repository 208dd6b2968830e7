package dev.tablewright.localstack.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.fakes.stream.UiMessageStreamReader;
import dev.tablewright.json.Json;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * One user of a stack, as a {@code useChat} page is one: with the user's bearer token it sends a message on a
 * conversation to the chat endpoint and reads the turn's UI message stream part by part as it arrives
 * ({@link UiMessageStreamReader}), answers a tool's input request and accepts or rejects a preview through the HTTP
 * API. The terminal chat and the evaluation harness talk to a stack through it.
 */
public final class ChatClient {

    /** How the chat answered a message: a refusal (its status and body), or a stream read to its end. */
    public record Reply(int status, String refusal, boolean done) {
        public boolean refused() {
            return status != 200;
        }
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static final Duration API_TIMEOUT = Duration.ofSeconds(60);

    private final String apiUrl;
    private final String chatUrl;
    private final String token;
    private final Duration turnTimeout;

    /** @param turnTimeout how long the chat may take to start answering a message */
    public ChatClient(String apiUrl, String chatUrl, String token, Duration turnTimeout) {
        this.apiUrl = apiUrl;
        this.chatUrl = chatUrl;
        this.token = token;
        this.turnTimeout = turnTimeout;
    }

    /**
     * Sends one message in the AI SDK's message-persistence form: the server keeps the conversation and its working
     * config, so a request carries only the newest message (the user's, or the assistant message a resumed turn
     * continues).
     *
     * @param context the page's context, or null for none
     * @param onPart  each part of the turn's stream, as it arrives
     */
    public Reply send(String conversationId, JsonNode message, ObjectNode context, Consumer<JsonNode> onPart)
            throws IOException, InterruptedException {
        ObjectNode body = Json.object().put("id", conversationId).put("trigger", "submit-message");
        body.set("message", message);
        if (context != null) {
            body.set("context", context);
        }
        HttpResponse<InputStream> response = HTTP.send(HttpRequest.newBuilder(URI.create(chatUrl)).timeout(turnTimeout)
                .header("authorization", "Bearer " + token)
                .header("content-type", "application/json")
                .header("accept", "text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(body))).build(), HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream in = response.body()) {
            if (response.statusCode() != 200) {
                return new Reply(response.statusCode(), new String(in.readAllBytes(), StandardCharsets.UTF_8), false);
            }
            UiMessageStreamReader stream = new UiMessageStreamReader(in);
            for (JsonNode part = stream.next(); part != null; part = stream.next()) {
                onPart.accept(part);
            }
            // to the response's end: the turn lets go of its conversation after [DONE], before the response ends
            in.transferTo(OutputStream.nullOutputStream());
            return new Reply(200, null, stream.done());
        }
    }

    /** Answers a tool's input request with the user's values. */
    public HttpResponse<String> answer(String conversationId, String toolCallId, JsonNode values)
            throws IOException, InterruptedException {
        ObjectNode body = Json.object();
        body.set("values", values);
        return api("POST", "/conversations/" + encode(conversationId) + "/input-requests/" + encode(toolCallId) + "/response",
                Json.write(body));
    }

    /** Accepts or rejects a preview. */
    public HttpResponse<String> decide(String previewId, boolean accept) throws IOException, InterruptedException {
        return api("POST", "/previews/" + encode(previewId) + (accept ? "/accept" : "/reject"), "{}");
    }

    /** A call of the HTTP API as this user: a JSON body, or none. */
    public HttpResponse<String> api(String method, String path, String body) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(apiUrl + path)).timeout(API_TIMEOUT)
                .header("authorization", "Bearer " + token)
                .header("content-type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A path segment, URL-encoded (a space as {@code %20}). */
    public static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
