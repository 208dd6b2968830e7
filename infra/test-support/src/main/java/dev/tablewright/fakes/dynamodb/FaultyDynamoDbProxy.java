package dev.tablewright.fakes.dynamodb;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback HTTP proxy in front of a real DynamoDB engine that injects the network's and DynamoDB's faults into
 * chosen calls and forwards everything else, so "exactly once" and "nothing half-written" are checked on the real
 * engine. A fault is chosen by operation ({@code X-Amz-Target}'s, e.g. {@code PutItem}, or {@code "*"}), optionally
 * by table (the request names it), and for a number of calls:
 * <ul>
 *   <li>{@link Fault#LOSE_ANSWER}: the call is forwarded and committed, then the connection is closed without an
 *       answer, as when a function froze or the network dropped after DynamoDB wrote; the SDK retries it;</li>
 *   <li>{@link Fault#RESET}: the connection is closed before the call reaches DynamoDB;</li>
 *   <li>{@link Fault#THROTTLING}, {@link Fault#PROVISIONED_THROUGHPUT}, {@link Fault#INTERNAL_ERROR}: DynamoDB's own
 *       answers (400 with its error body, or 500), which DynamoDB Local never gives;</li>
 *   <li>{@link #delay}: the call is held, then forwarded (storage slowed to seconds per call).</li>
 * </ul>
 * Rules are tried in the order they were added; one whose count is used up no longer applies. It never runs in a
 * function: the tests and the local stack put it between a client and DynamoDB Local.
 */
public final class FaultyDynamoDbProxy implements AutoCloseable {

    public enum Fault {
        LOSE_ANSWER(0, null, null),
        RESET(0, null, null),
        THROTTLING(400, "com.amazonaws.dynamodb.v20120810#ThrottlingException", "Rate of requests exceeds the allowed throughput."),
        PROVISIONED_THROUGHPUT(400, "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",
                "The level of configured provisioned throughput for the table was exceeded."),
        INTERNAL_ERROR(500, "com.amazonaws.dynamodb.v20120810#InternalServerError", "Internal server error");

        final int status;
        final String type;
        final String message;

        Fault(int status, String type, String message) {
            this.status = status;
            this.type = type;
            this.message = message;
        }
    }

    /** Every call of the operation, for as long as the rule stands. */
    public static final int ALWAYS = Integer.MAX_VALUE;

    private static final Set<String> HOP_BY_HOP = Set.of("host", "content-length", "connection", "expect", "upgrade", "transfer-encoding");

    /** One injected fault: what, on which calls, how many times more. */
    private record Rule(Fault fault, Duration delay, String operation, String table, String bodyContains, AtomicInteger remaining) {
        boolean matches(String op, String body) {
            return (operation.equals("*") || operation.equals(op))
                    && (table == null || body.contains("\"TableName\":\"" + table + "\""))
                    && (bodyContains == null || body.contains(bodyContains));
        }

        boolean take() {
            return remaining.getAndUpdate(n -> n == ALWAYS ? n : Math.max(0, n - 1)) > 0;
        }
    }

    private final HttpServer server;
    private final URI target;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final List<Rule> rules = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicInteger> faulted = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> forwarded = new ConcurrentHashMap<>();

    public FaultyDynamoDbProxy(URI target) throws IOException {
        this.target = target;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.createContext("/", this::handle);
        server.start();
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Answer every call of {@code operation} (e.g. "TransactWriteItems", or "*") with {@code fault}. */
    public void fail(String operation, Fault fault) {
        rules.removeIf(r -> r.operation().equals(operation) && r.table() == null && r.remaining().get() == ALWAYS);
        fail(operation, null, fault, ALWAYS);
    }

    /** Answer the next {@code times} calls of {@code operation} on {@code table} (null: any table) with {@code fault}. */
    public void fail(String operation, String table, Fault fault, int times) {
        fail(operation, table, null, fault, times);
    }

    /**
     * As {@link #fail(String, String, Fault, int)}, for the calls whose request body contains {@code bodyContains}
     * (an attribute name, say: one write among several of a table).
     */
    public void fail(String operation, String table, String bodyContains, Fault fault, int times) {
        rules.add(new Rule(fault, null, operation, table, bodyContains, new AtomicInteger(times)));
    }

    /** Hold the next {@code times} calls of {@code operation} on {@code table} (null: any) for {@code delay}, then forward them. */
    public void delay(String operation, String table, Duration delay, int times) {
        rules.add(new Rule(null, delay, operation, table, null, new AtomicInteger(times)));
    }

    /** Drops every rule: everything is forwarded again. */
    public void heal() {
        rules.clear();
    }

    /** How many calls of {@code operation} met a fault (the SDK's retries included). */
    public int faultedCalls(String operation) {
        AtomicInteger n = faulted.get(operation);
        return n == null ? 0 : n.get();
    }

    /** How many calls of {@code operation} reached DynamoDB (a lost answer's included). */
    public int forwardedCalls(String operation) {
        AtomicInteger n = forwarded.get(operation);
        return n == null ? 0 : n.get();
    }

    private Rule ruleFor(String operation, String body) {
        for (Rule rule : rules) {
            if (rule.matches(operation, body) && rule.take()) {
                return rule;
            }
        }
        return null;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String amzTarget = exchange.getRequestHeaders().getFirst("X-Amz-Target");
            String operation = amzTarget == null ? "" : amzTarget.substring(amzTarget.indexOf('.') + 1);
            Rule rule = ruleFor(operation, new String(body, StandardCharsets.UTF_8));
            if (rule != null && rule.delay() != null) {
                Thread.sleep(rule.delay().toMillis());
                rule = null;
            }
            if (rule != null) {
                faulted.computeIfAbsent(operation, k -> new AtomicInteger()).incrementAndGet();
                switch (rule.fault()) {
                    case RESET -> {
                        return; // closed without an answer: HttpExchange.close before any header drops the connection
                    }
                    case LOSE_ANSWER -> {
                        forward(exchange, operation, body);
                        return; // committed, and the answer never leaves
                    }
                    default -> {
                        answer(exchange, rule.fault().status, ("{\"__type\":\"" + rule.fault().type + "\",\"message\":\""
                                + rule.fault().message + "\"}").getBytes(StandardCharsets.UTF_8), "application/x-amz-json-1.0");
                        return;
                    }
                }
            }
            HttpResponse<byte[]> response = forward(exchange, operation, body);
            response.headers().map().forEach((name, values) -> {
                if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT)) && !name.startsWith(":")) {
                    values.forEach(v -> exchange.getResponseHeaders().add(name, v));
                }
            });
            answer(exchange, response.statusCode(), response.body(), null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private HttpResponse<byte[]> forward(HttpExchange exchange, String operation, byte[] body) throws IOException, InterruptedException {
        HttpRequest.Builder forward = HttpRequest.newBuilder(target.resolve(exchange.getRequestURI().toString()))
                .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
        exchange.getRequestHeaders().forEach((name, values) -> {
            if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT))) {
                values.forEach(v -> forward.header(name, v));
            }
        });
        HttpResponse<byte[]> response = client.send(forward.build(), HttpResponse.BodyHandlers.ofByteArray());
        forwarded.computeIfAbsent(operation, k -> new AtomicInteger()).incrementAndGet();
        return response;
    }

    private static void answer(HttpExchange exchange, int status, byte[] answer, String contentType) throws IOException {
        if (contentType != null) {
            exchange.getResponseHeaders().add("Content-Type", contentType);
        }
        exchange.sendResponseHeaders(status, answer.length == 0 ? -1 : answer.length);
        if (answer.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        ((ExecutorService) server.getExecutor()).shutdownNow();
    }
}
