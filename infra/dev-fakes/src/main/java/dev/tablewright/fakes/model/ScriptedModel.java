package dev.tablewright.fakes.model;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.fakes.http.HttpResponder;
import dev.tablewright.fakes.http.LoopbackHttpServer;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A model server that replays {@link ScriptedTurn}s on the loopback interface, whichever wire it speaks: the
 * OpenAI-compatible {@link ScriptedModelServer} or the Bedrock stand-in {@link BedrockModelServer}. The same script
 * plays on either, so a suite written against one runs against the other.
 *
 * <p>What does not depend on the wire is here once: the turns still to play, the signals a turn waits at, and the
 * requests received with how each was answered. A server says only how it reads a request and writes a turn.
 */
public abstract sealed class ScriptedModel implements AutoCloseable permits ScriptedModelServer, BedrockModelServer {

    /** How long a turn waits at a signal no test releases: long enough for any test, short of hanging a suite. */
    private static final long WAIT_LIMIT_MILLIS = 60_000;

    private final String name;
    private final int keptRequests;
    private final ConcurrentLinkedQueue<ScriptedTurn> turns = new ConcurrentLinkedQueue<>();
    private final Map<String, CountDownLatch> signals = new ConcurrentHashMap<>();
    private final List<RecordedRequest> requests = new ArrayList<>();
    private int received;
    private volatile LoopbackHttpServer server;

    /**
     * @param name         the server in a timeout's message
     * @param keptRequests how many recorded requests are kept: all for a test's script, the latest for a server
     *                     that runs for hours
     */
    ScriptedModel(String name, int keptRequests, ModelScript script) {
        this.name = name;
        this.keptRequests = keptRequests;
        enqueue(script);
    }

    public ScriptedModel enqueue(ModelScript script) {
        turns.addAll(script.turns());
        return this;
    }

    public ScriptedModel enqueue(ScriptedTurn... more) {
        turns.addAll(List.of(more));
        return this;
    }

    /** Turns not yet consumed. */
    public int remainingTurns() {
        return turns.size();
    }

    /** Lets every turn waiting at {@code waitFor(signal)} go on (now or when it gets there). */
    public void release(String signal) {
        signals.computeIfAbsent(signal, s -> new CountDownLatch(1)).countDown();
    }

    /** Requests as received; {@link RecordedRequest#messages()} reads either wire as chat-completions messages. */
    public List<RecordedRequest> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    public RecordedRequest lastRequest() {
        List<RecordedRequest> all = requests();
        if (all.isEmpty()) {
            throw new IllegalStateException(name + " received no request");
        }
        return all.getLast();
    }

    /** Waits until at least {@code count} requests have arrived. */
    public List<RecordedRequest> awaitRequests(int count, Duration timeout) throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (requests) {
            while (requests.size() < count) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new TimeoutException(name + " got " + requests.size() + " of " + count + " requests");
                }
                TimeUnit.NANOSECONDS.timedWait(requests, left);
            }
            return List.copyOf(requests);
        }
    }

    /** Waits until the answer to request {@code index} has ended (any outcome). */
    public RecordedRequest awaitAnswered(int index, Duration timeout) throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        RecordedRequest request = awaitRequests(index + 1, timeout).get(index);
        request.answer().awaitEnd(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        return request;
    }

    /**
     * Waits until the answer to request {@code index} has sent {@code chunks} content chunks (tokens, or pieces of a
     * tool call): the signal a test waits on where it wants a turn caught in the middle of its answer.
     */
    public RecordedRequest awaitContentServed(int index, int chunks, Duration timeout) throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        RecordedRequest request = awaitRequests(index + 1, timeout).get(index);
        request.answer().awaitContent(chunks, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        return request;
    }

    public int port() {
        return server.port();
    }

    /** {@code http://127.0.0.1:<port>}: where the server answers. */
    String loopbackUrl() {
        return "http://127.0.0.1:" + port();
    }

    /** Lets every waiting turn go and stops the server. */
    @Override
    public void close() {
        signals.values().forEach(CountDownLatch::countDown);
        server.close();
    }

    /** The server that answers, started by the subclass once it is fully built (it answers from another thread). */
    void serve(LoopbackHttpServer started) {
        this.server = started;
    }

    /** The next queued turn; null when none is left. */
    ScriptedTurn nextTurn() {
        return turns.poll();
    }

    /**
     * Answers a recorded request with {@code turn} (null: none left), keeping the answer's outcome the same way on
     * every wire: {@code error 500}, {@code disconnected}, {@code error <status>}, or what the completion ended with
     * ({@code client-gone} when the client left while it was written). The bytes are the wire's.
     */
    final void play(ScriptedTurn turn, RecordedRequest request, HttpResponder response) throws IOException, InterruptedException {
        RecordedRequest.Answer answer = request.answer();
        switch (turn) {
            case null -> {
                sendError(response, 500, noTurnLeft(), Map.of());
                answer.end("error 500");
            }
            case ScriptedTurn.Disconnect d -> {
                response.abort();
                answer.end("disconnected");
            }
            case ScriptedTurn.HttpError e -> {
                answer.firstByte();
                sendError(response, e.status(), e.message(), e.headers());
                answer.end("error " + e.status());
            }
            case ScriptedTurn.Completion c -> {
                try {
                    complete(c, request, response);
                } catch (IOException e) {
                    answer.end("client-gone");
                    throw e;
                }
            }
        }
    }

    /** The message of the 500 answered when no turn is left. */
    abstract String noTurnLeft();

    /** Writes an error as the wire writes one; {@code headers} are a scripted error's (they may name the error type). */
    abstract void sendError(HttpResponder response, int status, String message, Map<String, String> headers) throws IOException;

    /** Writes a completion and ends its answer ({@code completed}, {@code cut}, ...). */
    abstract void complete(ScriptedTurn.Completion turn, RecordedRequest request, HttpResponder response)
            throws IOException, InterruptedException;

    /** Plays a scripted pause: a delay, or a wait until the test releases the signal. */
    void pause(ScriptedTurn.Step.Pause pause) throws InterruptedException {
        switch (pause) {
            case ScriptedTurn.Step.Delay d -> Thread.sleep(d.millis());
            case ScriptedTurn.Step.WaitFor w ->
                    signals.computeIfAbsent(w.signal(), s -> new CountDownLatch(1)).await(WAIT_LIMIT_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Plays a pause inside a streamed answer, then fails the answer if the client left meanwhile: a write to a closed
     * peer can still succeed (the bytes reach the socket buffer first), so the next write would not tell.
     */
    void pause(ScriptedTurn.Step.Pause pause, HttpResponder response) throws IOException, InterruptedException {
        pause(pause);
        response.failIfClientGone();
    }

    /**
     * Records a request as it arrived, its {@code Authorization} header as {@link #keptAuthorization} keeps it and a
     * session token ({@code X-Amz-Security-Token}) as {@code <redacted>}.
     */
    RecordedRequest record(String path, Map<String, String> headers, JsonNode body) {
        Map<String, String> kept = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        kept.putAll(headers);
        kept.computeIfPresent("Authorization", (k, v) -> keptAuthorization(v));
        kept.computeIfPresent("X-Amz-Security-Token", (k, v) -> "<redacted>"); // a credential: only that it was sent
        synchronized (requests) {
            RecordedRequest recorded = new RecordedRequest(received++, path, Map.copyOf(new LinkedHashMap<>(kept)), body,
                    System.nanoTime(), new RecordedRequest.Answer());
            requests.add(recorded);
            if (requests.size() > keptRequests) {
                requests.removeFirst();
            }
            requests.notifyAll();
            return recorded;
        }
    }

    /** What is kept of a request's {@code Authorization} header: nothing of a credential. */
    String keptAuthorization(String value) {
        return "<redacted>";
    }
}
