package dev.tablewright.localstack.local;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.lambda.streaming.StreamingHandler;
import dev.tablewright.http.stream.HttpResponseStream;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Sends one chunk, then waits until the test has read it before sending the second: the test passes only if
 * the first chunk reached the client while the turn was still running.
 */
public final class LatchedChatTurn implements StreamingHandler {

    static volatile CountDownLatch firstChunkSeen = new CountDownLatch(1);

    @Override
    public void handle(JsonNode event, HttpResponseStream response) throws Exception {
        response.start(200, Map.of("content-type", "text/event-stream"));
        response.write("data: first\n\n".getBytes(StandardCharsets.UTF_8));
        response.flush();
        boolean seen = firstChunkSeen.await(20, TimeUnit.SECONDS);
        response.write(("data: second " + (seen ? "after-first-was-read" : "timed-out") + "\n\n").getBytes(StandardCharsets.UTF_8));
        response.write(("data: " + event.path("body").asText() + "\n\n").getBytes(StandardCharsets.UTF_8));
        response.flush();
        response.close();
    }
}
