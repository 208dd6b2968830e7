package dev.tablewright.systemtest.userinput;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.tablewright.dynamodb.DynamoDbClients;

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
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback HTTP proxy in front of a real DynamoDB engine that answers chosen operations (by
 * {@code X-Amz-Target}, e.g. {@code TransactWriteItems}) with DynamoDB's own throttling or internal-error
 * response, and forwards everything else. It lets a test provoke what DynamoDB Local never does (throttling,
 * a 500) while the rest of the traffic reaches the real engine, so "nothing half-written" can be checked there.
 */
public final class FaultyDynamoDbProxy implements AutoCloseable {

    public enum Fault {
        THROTTLING(400, "com.amazonaws.dynamodb.v20120810#ThrottlingException", "Rate of requests exceeds the allowed throughput."),
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

    /**
     * Client settings for the fault tests: short timeouts and three attempts keep them quick while the SDK retries
     * and gives up; deployed functions keep the SDK's defaults.
     */
    public static final DynamoDbClients.Settings IMPATIENT = new DynamoDbClients.Settings(
            Duration.ofMillis(300), Duration.ofSeconds(2), Duration.ofSeconds(10), 3);

    private static final Set<String> HOP_BY_HOP = Set.of("host", "content-length", "connection", "expect", "upgrade", "transfer-encoding");

    private final HttpServer server;
    private final URI target;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final Map<String, Fault> faults = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> faulted = new ConcurrentHashMap<>();

    public FaultyDynamoDbProxy(URI target) throws IOException {
        this.target = target;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/", this::handle);
        server.start();
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Answer {@code operation} (e.g. "TransactWriteItems", or "*" for every operation) with {@code fault}. */
    public void fail(String operation, Fault fault) {
        faults.put(operation, fault);
    }

    public void heal() {
        faults.clear();
    }

    /** How many calls of {@code operation} were answered with a fault (the SDK's retries included). */
    public int faultedCalls(String operation) {
        AtomicInteger n = faulted.get(operation);
        return n == null ? 0 : n.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String amzTarget = exchange.getRequestHeaders().getFirst("X-Amz-Target");
            String operation = amzTarget == null ? "" : amzTarget.substring(amzTarget.indexOf('.') + 1);
            Fault fault = faults.getOrDefault(operation, faults.get("*"));
            if (fault != null) {
                faulted.computeIfAbsent(operation, k -> new AtomicInteger()).incrementAndGet();
                byte[] answer = ("{\"__type\":\"" + fault.type + "\",\"message\":\"" + fault.message + "\"}").getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.0");
                exchange.sendResponseHeaders(fault.status, answer.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(answer);
                }
                return;
            }
            HttpRequest.Builder forward = HttpRequest.newBuilder(target.resolve(exchange.getRequestURI().toString()))
                    .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
            exchange.getRequestHeaders().forEach((name, values) -> {
                if (!HOP_BY_HOP.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                    values.forEach(v -> forward.header(name, v));
                }
            });
            HttpResponse<byte[]> response = client.send(forward.build(), HttpResponse.BodyHandlers.ofByteArray());
            response.headers().map().forEach((name, values) -> {
                if (!HOP_BY_HOP.contains(name.toLowerCase(java.util.Locale.ROOT)) && !name.startsWith(":")) {
                    values.forEach(v -> exchange.getResponseHeaders().add(name, v));
                }
            });
            byte[] answer = response.body();
            exchange.sendResponseHeaders(response.statusCode(), answer.length == 0 ? -1 : answer.length);
            if (answer.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(answer);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}
