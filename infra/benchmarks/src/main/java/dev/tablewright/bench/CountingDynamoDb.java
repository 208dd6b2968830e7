package dev.tablewright.bench;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A pass-through on loopback in front of DynamoDB Local that counts the calls made through it, by operation (the
 * {@code X-Amz-Target} header): what a function would pay DynamoDB for, seen from outside the code that calls it.
 */
final class CountingDynamoDb implements AutoCloseable {

    /** Headers the JDK's client sets itself (or refuses to set). */
    private static final Set<String> RESTRICTED = Set.of("host", "content-length", "connection", "expect", "upgrade");

    private final HttpServer server;
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

    private CountingDynamoDb(HttpServer server) {
        this.server = server;
    }

    static CountingDynamoDb start(URI target) throws IOException {
        HttpClient client = HttpClient.newHttpClient();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        CountingDynamoDb counting = new CountingDynamoDb(server);
        server.createContext("/", exchange -> {
            String operation = String.valueOf(exchange.getRequestHeaders().getFirst("X-Amz-Target"));
            counting.calls.computeIfAbsent(operation.substring(operation.indexOf('.') + 1), k -> new AtomicInteger()).incrementAndGet();
            HttpRequest.Builder forward = HttpRequest.newBuilder(target.resolve(exchange.getRequestURI().getPath()))
                    .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(exchange.getRequestBody().readAllBytes()));
            exchange.getRequestHeaders().forEach((name, values) -> {
                if (!RESTRICTED.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                    values.forEach(v -> forward.header(name, v));
                }
            });
            try {
                HttpResponse<byte[]> answer = client.send(forward.build(), HttpResponse.BodyHandlers.ofByteArray());
                answer.headers().map().forEach((name, values) -> {
                    if (!RESTRICTED.contains(name.toLowerCase(java.util.Locale.ROOT)) && !name.startsWith(":")) {
                        values.forEach(v -> exchange.getResponseHeaders().add(name, v));
                    }
                });
                exchange.sendResponseHeaders(answer.statusCode(), answer.body().length == 0 ? -1 : answer.body().length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(answer.body());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                exchange.sendResponseHeaders(502, -1);
            } finally {
                exchange.close();
            }
        });
        server.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(4));
        server.start();
        return counting;
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** The calls counted since the last reset, by operation; and resets the count. */
    Map<String, Integer> drain() {
        Map<String, Integer> out = new TreeMap<>();
        calls.forEach((operation, count) -> out.put(operation, count.getAndSet(0)));
        out.values().removeIf(v -> v == 0);
        return out;
    }

    static int total(Map<String, Integer> calls) {
        return calls.values().stream().mapToInt(Integer::intValue).sum();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
