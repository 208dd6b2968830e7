package dev.tablewright.systemtest.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.aisdk.stream.UiMessageStreamWriter;
import dev.tablewright.conversation.TurnStreamLog;
import dev.tablewright.dynamodb.DynamoDbClients;
import dev.tablewright.dynamodb.DynamoTurnStreamLog;
import dev.tablewright.fakes.concurrent.Poll;
import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.fakes.stream.UiMessageStreamReader;
import dev.tablewright.localstack.local.LocalDeployment;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.fakes.model.RecordedRequest;
import dev.tablewright.fakes.model.ScriptedModelServer;
import dev.tablewright.json.Json;
import dev.tablewright.lambda.Env;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Turns that outlive their client, against the local stack (DynamoDB Local, the scripted model, the chat function
 * behind the local gateway, over HTTP): a client that drops mid-answer leaves the turn running to its end and stored
 * whole once; {@code GET /chat/{id}/stream} replays and follows it (read by hand, and by the AI SDK 7 client's own
 * {@code DefaultChatTransport.reconnectToStream}); {@code POST /chat/{id}/stop} ends it from another request, the
 * model's request cancelled and the partial answer stored as stopped; another user and a missing token get nothing.
 */
class ResumableTurnTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static final int WORDS = 30;
    @AutoClose
    private static LocalDeployment stack;
    private static String token;

    @BeforeAll
    static void start() throws Exception {
        stack = LocalDeployment.start(LocalDeployment.Settings.forTest(Map.of(), ModelScript.builder().build()));
        token = stack.issuer().mint(DevIssuer.DEV_USER);
    }

    static ScriptedModelServer model() {
        return stack.model().scriptedServer();
    }

    /** An answer of {@link #WORDS} words, one delta each, {@code pauseMs} apart. */
    static ModelScript slowAnswer(String word, long pauseMs) {
        return ModelScript.builder().turn(t -> {
            for (int i = 0; i < WORDS; i++) {
                t.delay(pauseMs).text(word + i + " ");
            }
        }).build();
    }

    /** As {@link #slowAnswer}, but after {@code before} words the answer waits until the test releases {@code signal}. */
    static ModelScript answerHeldAfter(String word, int before, String signal) {
        return ModelScript.builder().turn(t -> {
            for (int i = 0; i < WORDS; i++) {
                if (i == before) {
                    t.waitFor(signal);
                }
                t.delay(10).text(word + i + " ");
            }
        }).build();
    }

    static String wholeAnswer(String word) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < WORDS; i++) {
            b.append(word).append(i).append(' ');
        }
        return b.toString();
    }

    static String turnBody(String conversation, String messageId, String text) {
        ObjectNode body = Json.object().put("id", conversation).put("trigger", "submit-message");
        ObjectNode message = body.putObject("message").put("id", messageId).put("role", "user");
        message.putArray("parts").addObject().put("type", "text").put("text", text);
        body.putObject("context").put("page", "tables");
        return Json.write(body);
    }

    /**
     * A turn's POST on a plain socket, so the test decides when the client goes: closing it mid-stream is what a
     * reloaded tab does to the connection.
     */
    static final class RawTurn implements AutoCloseable {
        final Socket socket;
        final InputStream in;
        final ByteArrayOutputStream seen = new ByteArrayOutputStream();

        RawTurn(String bearer, String body) throws IOException {
            socket = new Socket("127.0.0.1", stack.gateway().port());
            socket.setSoTimeout(20_000);
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /chat HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + bearer
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.flush();
            in = socket.getInputStream();
        }

        /** Reads until {@code count} text deltas have come; the {@code start} part's messageId. */
        String awaitDeltas(int count) throws IOException {
            byte[] buffer = new byte[4096];
            while (occurrences(seen.toString(StandardCharsets.UTF_8), "\"type\":\"text-delta\"") < count) {
                int n = in.read(buffer);
                if (n < 0) {
                    throw new AssertionError("the stream ended early: " + seen);
                }
                seen.write(buffer, 0, n);
            }
            String text = seen.toString(StandardCharsets.UTF_8);
            int at = text.indexOf("\"messageId\":\"") + 13;
            return text.substring(at, text.indexOf('"', at));
        }

        @Override
        public void close() throws IOException {
            socket.setSoLinger(true, 0); // a reset, as a closed tab
            socket.close();
        }
    }

    static int occurrences(String text, String what) {
        int n = 0;
        for (int at = text.indexOf(what); at >= 0; at = text.indexOf(what, at + 1)) {
            n++;
        }
        return n;
    }

    static HttpResponse<String> get(String url, String bearer) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60)).GET();
        if (bearer != null) {
            r.header("authorization", "Bearer " + bearer);
        }
        return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * A reader of {@code GET {chat}/{id}/stream} read as the bytes come, so a test knows when the reader has joined
     * the turn (its first bytes arrived) instead of guessing how long joining takes.
     */
    static final class FollowingReader {
        private final CountDownLatch joined = new CountDownLatch(1);
        private final ByteArrayOutputStream seen = new ByteArrayOutputStream();
        final CompletableFuture<String> body;
        volatile HttpResponse<InputStream> response;

        FollowingReader(String conversation) {
            HttpRequest request = HttpRequest.newBuilder(URI.create(stack.chatUrl() + "/" + conversation + "/stream"))
                    .timeout(Duration.ofSeconds(60)).header("authorization", "Bearer " + token).GET().build();
            body = CompletableFuture.supplyAsync(() -> {
                HttpResponse<InputStream> answer;
                try {
                    answer = HTTP.send(request, HttpResponse.BodyHandlers.ofInputStream());
                } catch (Exception e) {
                    joined.countDown();
                    throw new IllegalStateException(e);
                }
                response = answer;
                try (InputStream in = answer.body()) {
                    byte[] buffer = new byte[4096];
                    for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                        synchronized (seen) {
                            seen.write(buffer, 0, n);
                        }
                        joined.countDown();
                    }
                    synchronized (seen) {
                        return seen.toString(StandardCharsets.UTF_8);
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                } finally {
                    joined.countDown();
                }
            });
        }

        /** Waits until the reader has its first bytes of the turn (it follows the turn from then on). */
        void awaitJoined() throws InterruptedException {
            assertTrue(joined.await(30, TimeUnit.SECONDS), "the reader got no byte");
            synchronized (seen) {
                assertTrue(seen.size() > 0, "the reader's stream ended empty");
            }
        }
    }

    static HttpResponse<String> postStop(String conversation, String bearer) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(stack.chatUrl() + "/" + conversation + "/stop"))
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.noBody());
        if (bearer != null) {
            r.header("authorization", "Bearer " + bearer);
        }
        return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    static List<JsonNode> parts(String body) {
        return UiMessageStreamReader.parse(body).parts();
    }

    static String text(List<JsonNode> parts) {
        StringBuilder b = new StringBuilder();
        parts.stream().filter(p -> p.path("type").asText().equals("text-delta")).forEach(p -> b.append(p.path("delta").asText()));
        return b.toString();
    }

    /** The stored conversation once its assistant message is there (the turn stores it at its end). */
    static JsonNode storedAnswer(String conversation) throws Exception {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        return Poll.forValue("the stored answer of " + conversation, Duration.ofSeconds(30), () -> {
            try {
                HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(stack.url() + "/conversations/" + conversation))
                        .header("authorization", "Bearer " + token).GET().build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    JsonNode stored = Json.parse(r.body());
                    for (JsonNode m : stored.path("messages")) {
                        if (m.path("role").asText().equals("assistant")) {
                            return Optional.of(stored);
                        }
                    }
                }
                return Optional.empty();
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    static String storedText(JsonNode assistant) {
        StringBuilder b = new StringBuilder();
        assistant.path("parts").forEach(p -> {
            if (p.path("type").asText().equals("text")) {
                b.append(p.path("text").asText());
            }
        });
        return b.toString();
    }

    static List<JsonNode> assistants(JsonNode stored) {
        List<JsonNode> out = new ArrayList<>();
        stored.path("messages").forEach(m -> {
            if (m.path("role").asText().equals("assistant")) {
                out.add(m);
            }
        });
        return out;
    }

    @Test
    void aClientThatDropsAfterAFewDeltasLeavesTheTurnRunningToItsEndAndStoredWholeOnce() throws Exception {
        String conversation = "conv-drop-" + System.nanoTime();
        int before = model().requests().size();
        model().enqueue(slowAnswer("drop", 40));
        try (RawTurn turn = new RawTurn(token, turnBody(conversation, "u1", "Tell me thirty words"))) {
            turn.awaitDeltas(3);
        }
        RecordedRequest answered = model().awaitAnswered(before, Duration.ofSeconds(30));
        assertEquals("completed", answered.answer().outcome(), "the model streamed to its end with nobody reading");
        assertEquals(WORDS, answered.answer().contentNanos().size());

        JsonNode stored = storedAnswer(conversation);
        List<JsonNode> answers = assistants(stored);
        assertEquals(1, answers.size(), stored.toString());
        assertEquals(wholeAnswer("drop"), storedText(answers.getFirst()), "the whole answer, once");
        assertEquals(2, stored.path("messages").size(), "the question and its answer: " + stored);
        assertEquals("u1", stored.path("messages").get(0).path("id").asText());
        assertFalse(answers.getFirst().path("metadata").path("stopped").asBoolean(), "not stopped");
        assertEquals(before + 1, model().requests().size(), "one model request");
    }

    @Test
    void aDroppedTurnResumedAtOnceReplaysTheSameMessageWholeToFinishAndDoneThenNothingRuns() throws Exception {
        String conversation = "conv-resume-" + System.nanoTime();
        String held = "resume-" + conversation;
        model().enqueue(answerHeldAfter("again", 5, held));
        String messageId;
        try (RawTurn turn = new RawTurn(token, turnBody(conversation, "u1", "Tell me thirty words"))) {
            messageId = turn.awaitDeltas(3);
        }
        // the answer waits after five words until the resumed reader has joined: whatever the machine's pace, the
        // turn is still running when the reader asks for it
        FollowingReader reader = new FollowingReader(conversation);
        reader.awaitJoined();
        model().release(held);
        String resumed = reader.body.get(30, TimeUnit.SECONDS);
        assertEquals(200, reader.response.statusCode(), resumed);
        UiMessageStreamWriter.HEADERS.forEach((name, value) -> {
            if (!name.equals("connection")) { // hop-by-hop: the JDK's server sets its own
                assertEquals(value, reader.response.headers().firstValue(name).orElse(null), name);
            }
        });
        List<JsonNode> parts = parts(resumed);
        assertEquals("start", parts.getFirst().path("type").asText());
        assertEquals(messageId, parts.getFirst().path("messageId").asText(), "the same message");
        assertEquals(wholeAnswer("again"), text(parts), "from the first word to the last");
        assertEquals("finish", parts.getLast().path("type").asText());
        assertEquals(1, parts.stream().filter(p -> p.path("type").asText().equals("finish")).count(), "the turn's own finish, once");
        assertTrue(UiMessageStreamReader.parse(resumed).done(), resumed);

        storedAnswer(conversation);
        assertEquals(204, get(stack.chatUrl() + "/" + conversation + "/stream", token).statusCode(), "nothing runs any more");
    }

    @Test
    void theAiSdkClientReconnectsToARunningTurnAndFindsNothingOnceItEnded() throws Exception {
        AiSdkClient.reconnect(stack.chatUrl(), "warm-up-" + System.nanoTime(), token); // npm ci and node's start, before the turn
        String conversation = "conv-sdk-" + System.nanoTime();
        model().enqueue(slowAnswer("sdk", 60));
        String messageId;
        try (RawTurn turn = new RawTurn(token, turnBody(conversation, "u1", "Tell me thirty words"))) {
            messageId = turn.awaitDeltas(3);
        }
        JsonNode read = AiSdkClient.reconnect(stack.chatUrl(), conversation, token);
        assertFalse(read.path("none").asBoolean(), read.toString());
        JsonNode message = read.path("message");
        assertEquals(messageId, message.path("id").asText());
        assertEquals(wholeAnswer("sdk"), storedText(message));
        List<String> types = new ArrayList<>();
        read.path("chunkTypes").forEach(t -> types.add(t.asText()));
        assertEquals("start", types.getFirst());
        assertEquals("finish", types.getLast());

        storedAnswer(conversation);
        assertTrue(AiSdkClient.reconnect(stack.chatUrl(), conversation, token).path("none").asBoolean(), "null once idle (204)");
    }

    @Test
    void stopEndsTheOpenStreamAndEveryResumedReaderCancelsTheModelAndKeepsThePartialAnswer() throws Exception {
        String conversation = "conv-stop-" + System.nanoTime();
        int before = model().requests().size();
        model().enqueue(slowAnswer("stop", 150));
        HttpRequest post = HttpRequest.newBuilder(URI.create(stack.chatUrl())).timeout(Duration.ofSeconds(60))
                .header("authorization", "Bearer " + token).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(turnBody(conversation, "u1", "Tell me thirty words slowly"))).build();
        CompletableFuture<HttpResponse<String>> open = HTTP.sendAsync(post, HttpResponse.BodyHandlers.ofString());
        model().awaitContentServed(before, 4, Duration.ofSeconds(20)); // a few words
        FollowingReader reader = new FollowingReader(conversation);
        reader.awaitJoined();

        long stopped = System.nanoTime();
        assertEquals(204, postStop(conversation, token).statusCode());
        HttpResponse<String> streamed = open.get(20, TimeUnit.SECONDS);
        long endedMs = (System.nanoTime() - stopped) / 1_000_000;
        List<JsonNode> parts = parts(streamed.body());
        JsonNode finish = parts.getLast();
        assertEquals("finish", finish.path("type").asText(), streamed.body());
        assertTrue(finish.path("messageMetadata").path("stopped").asBoolean(), finish.toString());
        assertTrue(UiMessageStreamReader.parse(streamed.body()).done());
        String partial = text(parts);
        assertFalse(partial.isEmpty());
        assertNotEquals(wholeAnswer("stop"), partial, "cut short");

        RecordedRequest answered = model().awaitAnswered(before, Duration.ofSeconds(10));
        assertEquals("client-gone", answered.answer().outcome(), "the model's request was cancelled");
        assertTrue(answered.answer().contentNanos().size() < WORDS, "before its last token: " + answered.answer().contentNanos().size());

        String resumed = reader.body.get(20, TimeUnit.SECONDS);
        List<JsonNode> resumedParts = parts(resumed);
        assertEquals(partial, text(resumedParts), "the resumed reader saw the same answer");
        assertTrue(resumedParts.getLast().path("messageMetadata").path("stopped").asBoolean());
        assertTrue(UiMessageStreamReader.parse(resumed).done());

        JsonNode answer = assistants(storedAnswer(conversation)).getFirst();
        assertEquals(partial, storedText(answer), "the partial answer is stored");
        assertTrue(answer.path("metadata").path("stopped").asBoolean(), answer.toString());
        System.out.println("stop → the open stream's [DONE]: " + endedMs + " ms");

        assertEquals(204, postStop(conversation, token).statusCode(), "stopping with nothing running is a no-op");
    }

    @Test
    void aTurnThatDiedWithoutEndingItsLogEndsItsReaderWithAFinishOfItsOwnAndAStaleOneIsNotRunning() throws Exception {
        TurnStreamLog log = new DynamoTurnStreamLog(DynamoDbClients.fromEnvironment(Env.all()),
                Env.all().get("TURN_STREAMS_TABLE"), Duration.ofMinutes(5));
        String conversation = "conv-died-" + System.nanoTime();
        Instant now = Instant.now();
        log.open(DevIssuer.DEV_USER, conversation, "str_died", now);
        log.append(DevIssuer.DEV_USER, conversation, "str_died", new TurnStreamLog.Batch(0,
                "data: {\"type\":\"start\",\"messageId\":\"msg_died\"}\n\ndata: {\"type\":\"text-start\",\"id\":\"t\"}\n\n"
                        + "data: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":\"half an \"}\n\n", 3, false), now);
        // the function crashed: its marker goes (as after its TTL) without a last batch; a reader must not wait forever
        FollowingReader reader = new FollowingReader(conversation);
        reader.awaitJoined(); // it replayed the first batch and waits for more
        log.close(DevIssuer.DEV_USER, conversation, "str_died");
        String resumed = reader.body.get(30, TimeUnit.SECONDS);
        List<JsonNode> parts = parts(resumed);
        assertEquals("msg_died", parts.getFirst().path("messageId").asText());
        assertEquals("half an ", text(parts));
        assertEquals("finish", parts.getLast().path("type").asText());
        assertTrue(UiMessageStreamReader.parse(resumed).done());

        // a marker older than a turn can run (the function died and its marker is still there) is no running turn
        String stale = "conv-stale-" + System.nanoTime();
        log.open(DevIssuer.DEV_USER, stale, "str_stale", now.minus(Duration.ofMinutes(10)));
        assertEquals(204, get(stack.chatUrl() + "/" + stale + "/stream", token).statusCode());
        assertEquals(405, get(stack.chatUrl() + "/" + stale + "/stop", token).statusCode(), "stop is a POST");
    }

    @Test
    void anotherUserSeesAndStopsNothingAndNoTokenIsRefusedFirst() throws Exception {
        String conversation = "conv-owner-" + System.nanoTime();
        int before = model().requests().size();
        model().enqueue(slowAnswer("mine", 40));
        String mallory = stack.issuer().mint("mallory");
        try (RawTurn turn = new RawTurn(token, turnBody(conversation, "u1", "Tell me thirty words"))) {
            turn.awaitDeltas(2);
            assertEquals(401, get(stack.chatUrl() + "/" + conversation + "/stream", null).statusCode());
            assertEquals(401, postStop(conversation, null).statusCode());
            assertEquals(204, get(stack.chatUrl() + "/" + conversation + "/stream", mallory).statusCode(), "another user's turn is not there");
            assertEquals(204, postStop(conversation, mallory).statusCode());
            turn.awaitDeltas(WORDS);
        }
        RecordedRequest answered = model().awaitAnswered(before, Duration.ofSeconds(30));
        assertEquals("completed", answered.answer().outcome(), "another user's stop touched nothing");
        JsonNode answer = assistants(storedAnswer(conversation)).getFirst();
        assertEquals(wholeAnswer("mine"), storedText(answer));
        assertFalse(answer.path("metadata").path("stopped").asBoolean());
    }
}
