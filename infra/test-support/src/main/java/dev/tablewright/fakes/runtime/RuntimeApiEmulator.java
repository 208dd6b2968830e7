package dev.tablewright.fakes.runtime;

import dev.tablewright.fakes.http.HttpRequest;
import dev.tablewright.fakes.http.HttpResponder;
import dev.tablewright.fakes.http.LoopbackHttpServer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Lambda Runtime API (version 2018-06-01) of one execution environment, on 127.0.0.1, as the AWS
 * documentation describes it:
 * <ul>
 *   <li>{@code GET /2018-06-01/runtime/invocation/next}: blocks until an event is queued, answers it with the
 *       {@code Lambda-Runtime-Aws-Request-Id}, {@code -Deadline-Ms}, {@code -Invoked-Function-Arn} and
 *       {@code -Trace-Id} headers;</li>
 *   <li>{@code POST .../invocation/{id}/response}: buffered (up to 6 MB), or streamed with
 *       {@code Lambda-Runtime-Function-Response-Mode: streaming} and {@code Transfer-Encoding: chunked}, every chunk
 *       handed to the test as it arrives and the {@code Lambda-Runtime-Function-Error-Type}/{@code -Body}
 *       trailers kept;</li>
 *   <li>{@code POST .../invocation/{id}/error} and {@code POST /2018-06-01/runtime/init/error};</li>
 *   <li>SnapStart's restore path: {@code GET /2018-06-01/runtime/restore/next} (answered at once, as if the
 *       snapshot were taken and restored during the call; only Lambda can really take one) and
 *       {@code POST /2018-06-01/runtime/restore/error}.</li>
 * </ul>
 * {@link #calls()} lists the runtime's calls in order (method and path), for protocol tests.
 * Answers 202 to accepted posts, 400 to an unknown or already answered request id, 413 to an oversized buffered
 * response, 404 elsewhere.
 */
public final class RuntimeApiEmulator implements AutoCloseable {

    static final String PREFIX = "/2018-06-01/runtime/";
    private static final Pattern INVOCATION_POST = Pattern.compile("/2018-06-01/runtime/invocation/([^/]+)/(response|error)");
    private static final int MAX_BUFFERED_RESPONSE = 6 * 1024 * 1024;
    /** Lambda's error type of an invocation whose runtime exited before it answered. */
    public static final String EXIT_ERROR = "Runtime.ExitError";

    private final String functionName;
    private final LoopbackHttpServer server;
    private final LinkedBlockingQueue<Invocation> queue = new LinkedBlockingQueue<>();
    private final Map<String, Invocation> inFlight = new ConcurrentHashMap<>();
    private final CompletableFuture<InvocationResult> initError = new CompletableFuture<>();
    private final CompletableFuture<Long> firstPollNanos = new CompletableFuture<>();
    private final AtomicInteger polls = new AtomicInteger();
    private final java.util.List<String> calls = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    private final CompletableFuture<InvocationResult> restoreError = new CompletableFuture<>();

    private RuntimeApiEmulator(String functionName, int port) throws IOException {
        this.functionName = functionName;
        this.server = LoopbackHttpServer.start(port, "runtime-api", this::handle);
    }

    public static RuntimeApiEmulator start(String functionName) throws IOException {
        return new RuntimeApiEmulator(functionName, 0);
    }

    /** The value for {@code AWS_LAMBDA_RUNTIME_API}. */
    public String address() {
        return server.hostAndPort();
    }

    public String functionName() {
        return functionName;
    }

    public Invocation invoke(String eventJson) {
        return invoke(eventJson.getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(30));
    }

    /** Queues an event; {@code timeout} sets the {@code Lambda-Runtime-Deadline-Ms} the runtime sees. */
    public Invocation invoke(byte[] event, Duration timeout) {
        Invocation invocation = new Invocation(UUID.randomUUID().toString(), event,
                System.currentTimeMillis() + timeout.toMillis());
        inFlight.put(invocation.requestId(), invocation);
        queue.add(invocation);
        if (initError.isDone()) {
            failQueued();
        }
        return invocation;
    }

    /** Completes when the runtime reports {@code /init/error}. */
    public CompletableFuture<InvocationResult> initError() {
        return initError;
    }

    /** Completes with {@link System#nanoTime()} of the runtime's first {@code /next}: its init phase is over. */
    public CompletableFuture<Long> firstPoll() {
        return firstPollNanos;
    }

    public int polls() {
        return polls.get();
    }

    /** The runtime's calls so far, in order: {@code "GET restore/next"}, {@code "GET invocation/next"}, ... */
    public java.util.List<String> calls() {
        synchronized (calls) {
            return java.util.List.copyOf(calls);
        }
    }

    /** Completes when the runtime reports {@code /restore/error}. */
    public CompletableFuture<InvocationResult> restoreError() {
        return restoreError;
    }

    private void handle(HttpRequest request, HttpResponder response) throws Exception {
        String path = request.path();
        if (!path.startsWith(PREFIX)) {
            notFound(response);
            return;
        }
        calls.add(request.method() + " " + path.substring(PREFIX.length()));
        if (path.equals(PREFIX + "restore/next")) {
            if (!request.method().equals("GET")) {
                response.sendText(405, "application/json", "{\"errorMessage\":\"use GET\",\"errorType\":\"MethodNotAllowed\"}");
                return;
            }
            response.send(200, Map.of("Content-Type", "application/json"), new byte[0]);
            return;
        }
        if (path.equals(PREFIX + "restore/error") && request.method().equals("POST")) {
            byte[] body = request.body();
            restoreError.complete(new InvocationResult(InvocationResult.Outcome.INIT_ERROR, false,
                    copy(request.headers()), body, Map.of(), System.nanoTime()));
            response.sendText(202, "application/json", "{\"status\":\"OK\"}");
            return;
        }
        if (path.equals(PREFIX + "invocation/next")) {
            if (!request.method().equals("GET")) {
                response.sendText(405, "application/json", "{\"errorMessage\":\"use GET\",\"errorType\":\"MethodNotAllowed\"}");
                return;
            }
            next(response);
            return;
        }
        if (path.equals(PREFIX + "init/error") && request.method().equals("POST")) {
            byte[] body = request.body();
            initError.complete(new InvocationResult(InvocationResult.Outcome.INIT_ERROR, false,
                    copy(request.headers()), body, Map.of(), System.nanoTime()));
            failQueued();
            accepted(response);
            return;
        }
        Matcher m = INVOCATION_POST.matcher(path);
        if (m.matches() && request.method().equals("POST")) {
            Invocation invocation = inFlight.remove(m.group(1));
            if (invocation == null || invocation.deliveredNanos() == 0) {
                if (invocation != null) {
                    inFlight.put(invocation.requestId(), invocation);
                }
                request.body();
                response.sendText(400, "application/json",
                        "{\"errorMessage\":\"unknown or already answered request id\",\"errorType\":\"InvalidRequestID\"}");
                return;
            }
            if (m.group(2).equals("error")) {
                byte[] body = request.body();
                invocation.complete(new InvocationResult(InvocationResult.Outcome.ERROR, false,
                        copy(request.headers()), body, Map.of(), System.nanoTime()));
                accepted(response);
                return;
            }
            boolean streamed = "streaming".equalsIgnoreCase(request.header("Lambda-Runtime-Function-Response-Mode"));
            java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
            if (streamed) {
                invocation.streaming(response);
            }
            try {
                readResponse(invocation, request, response, streamed, all);
            } catch (IOException e) {
                if (invocation.dropped()) {
                    invocation.complete(new InvocationResult(InvocationResult.Outcome.DROPPED, true, copy(request.headers()),
                            all.toByteArray(), Map.of(), System.nanoTime()));
                    return;
                }
                // the runtime died while it answered (its process killed): Lambda fails the invocation with what
                // had arrived, as Runtime.ExitError
                Map<String, String> headers = copy(request.headers());
                headers.put(InvocationResult.ERROR_TYPE, EXIT_ERROR);
                invocation.complete(new InvocationResult(InvocationResult.Outcome.ERROR, streamed, headers,
                        all.toByteArray(), Map.of(), System.nanoTime()));
                throw e;
            }
            return;
        }
        notFound(response);
    }

    private void readResponse(Invocation invocation, HttpRequest request, HttpResponder response, boolean streamed,
                              java.io.ByteArrayOutputStream all) throws IOException {
        for (byte[] chunk = request.nextChunk(); chunk != null; chunk = request.nextChunk()) {
            long now = System.nanoTime();
            all.writeBytes(chunk);
            if (streamed) {
                invocation.chunk(new Chunk(chunk, now));
            } else if (all.size() > MAX_BUFFERED_RESPONSE) {
                request.body();
                invocation.complete(new InvocationResult(InvocationResult.Outcome.ERROR, false,
                        Map.of(InvocationResult.ERROR_TYPE, "Function.ResponseSizeTooLarge"),
                        "{\"errorMessage\":\"Response payload size exceeded maximum allowed payload size (6291556 bytes).\",\"errorType\":\"Function.ResponseSizeTooLarge\"}"
                                .getBytes(StandardCharsets.UTF_8), Map.of(), System.nanoTime()));
                response.sendText(413, "application/json",
                        "{\"errorMessage\":\"response too large\",\"errorType\":\"RequestEntityTooLarge\"}");
                return;
            }
        }
        invocation.complete(new InvocationResult(InvocationResult.Outcome.RESPONSE, streamed,
                copy(request.headers()), all.toByteArray(), copy(request.trailers()), System.nanoTime()));
        accepted(response);
    }

    private void next(HttpResponder response) throws IOException, InterruptedException {
        polls.incrementAndGet();
        firstPollNanos.complete(System.nanoTime());
        Invocation invocation = queue.take();
        invocation.delivered();
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        headers.put("Lambda-Runtime-Aws-Request-Id", invocation.requestId());
        headers.put("Lambda-Runtime-Deadline-Ms", Long.toString(invocation.deadlineEpochMillis()));
        headers.put("Lambda-Runtime-Invoked-Function-Arn", "arn:aws:lambda:us-east-1:000000000000:function:" + functionName);
        headers.put("Lambda-Runtime-Trace-Id", traceId());
        response.send(200, headers, invocation.event());
    }

    private void failQueued() {
        InvocationResult error = initError.getNow(null);
        for (Invocation queued; (queued = queue.poll()) != null; ) {
            inFlight.remove(queued.requestId());
            queued.complete(error);
        }
    }

    private static String traceId() {
        HexFormat hex = HexFormat.of();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return "Root=1-" + Long.toHexString(System.currentTimeMillis() / 1000) + "-"
                + hex.toHexDigits(random.nextLong()) + hex.toHexDigits(random.nextInt())
                + ";Parent=" + hex.toHexDigits(random.nextLong()) + ";Sampled=0";
    }

    private static Map<String, String> copy(Map<String, String> headers) {
        Map<String, String> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        copy.putAll(headers);
        return copy;
    }

    private static void accepted(HttpResponder response) throws IOException {
        response.sendText(202, "application/json", "{\"status\":\"OK\"}");
    }

    private static void notFound(HttpResponder response) throws IOException {
        response.sendText(404, "application/json", "{\"errorMessage\":\"not found\",\"errorType\":\"NotFound\"}");
    }

    public Optional<InvocationResult> initErrorNow() {
        return Optional.ofNullable(initError.getNow(null));
    }

    @Override
    public void close() {
        server.close();
    }
}
