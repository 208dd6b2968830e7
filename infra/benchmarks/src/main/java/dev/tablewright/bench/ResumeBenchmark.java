package dev.tablewright.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.dynamodb.DynamoDbClients;
import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.localstack.local.LocalDeployment;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.fakes.stream.UiMessageStreamReader;
import dev.tablewright.json.Json;
import dev.tablewright.lambda.Env;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * What resumable turns cost and how far a resumed reader runs behind, on the local stack (DynamoDB Local, the
 * scripted model, the chat function behind the local gateway, over HTTP):
 * <ul>
 *   <li><b>writes and bytes per turn</b>: the stream log's items for one turn (batches, the bytes of their events),
 *       read back from the table after the turn;</li>
 *   <li><b>reader lag</b>: a live client and a resumed reader ({@code GET /chat/{id}/stream}, joined 300 ms into
 *       the turn) read the same turn; for every text delta both saw after the reader caught up, the time between
 *       the two arrivals;</li>
 *   <li><b>stop</b>: from {@code POST /chat/{id}/stop} to {@code [DONE]} on the live stream and on a resumed one.</li>
 * </ul>
 * <pre>infra/bin/resume-bench [--runs N]</pre>
 * A measurement, not a test: figures go to docs/performance.md with the command that produced them.
 */
public final class ResumeBenchmark {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    /** One streamed response, each text delta with the moment it arrived. */
    record Read(Map<String, Long> deltaNanos, long firstByteNanos, long doneNanos) {
    }

    public static void main(String[] args) throws Exception {
        int runs = 5;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--runs")) {
                runs = Integer.parseInt(args[++i]);
            } else {
                throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        try (LocalDeployment stack = LocalDeployment.start(LocalDeployment.Settings.forTest(Map.of("LOG_LEVEL", "WARN"),
                ModelScript.builder().build()))) {
            String token = stack.issuer().mint(DevIssuer.DEV_USER);
            DynamoDbClient dynamo = DynamoDbClients.fromEnvironment(Env.all());
            String table = Env.all().get("TURN_STREAMS_TABLE");
            System.out.printf(Locale.ROOT, "%-34s %8s %8s %9s %10s %10s %10s %10s%n", "turn", "deltas", "batches",
                    "bytes", "lag p50", "lag p90", "lag max", "turn");
            for (int[] shape : new int[][]{{40, 50}, {400, 10}, {1000, 5}}) {
                for (int run = 0; run < runs; run++) {
                    if (shape[0] == 40 && run == 0) {
                        System.out.print("(warm-up) ");
                        measureTurn(stack, token, dynamo, table, shape[0], shape[1]);
                    }
                    measureTurn(stack, token, dynamo, table, shape[0], shape[1]);
                }
            }
            System.out.println();
            List<Double> live = new ArrayList<>();
            List<Double> resumed = new ArrayList<>();
            for (int run = 0; run < runs; run++) {
                double[] stop = measureStop(stack, token);
                live.add(stop[0]);
                resumed.add(stop[1]);
            }
            System.out.printf(Locale.ROOT, "stop -> [DONE]: live stream p50 %.0f ms, max %.0f ms; resumed reader p50 %.0f ms, max %.0f ms (%d runs)%n",
                    percentile(live, 50), percentile(live, 100), percentile(resumed, 50), percentile(resumed, 100), runs);
        }
        System.exit(0);
    }

    private static void measureTurn(LocalDeployment stack, String token, DynamoDbClient dynamo, String table,
                                    int deltas, int pauseMs) throws Exception {
        String conversation = "bench-" + System.nanoTime();
        stack.model().scriptedServer().enqueue(ModelScript.builder().turn(t -> {
            for (int i = 0; i < deltas; i++) {
                t.delay(pauseMs).text("w" + i + " ");
            }
        }).build());
        long started = System.nanoTime();
        CompletableFuture<Read> live = CompletableFuture.supplyAsync(() -> read(post(stack, token, conversation)));
        Thread.sleep(300);
        HttpResponse<java.io.InputStream> stream = get(stack, token, conversation);
        for (int tries = 0; stream.statusCode() == 204 && tries < 40; tries++) { // the marker is not written yet
            Thread.sleep(50);
            stream = get(stack, token, conversation);
        }
        Read resumed = read(stream);
        Read whole = live.join();
        long turnMs = (whole.doneNanos() - started) / 1_000_000;
        List<Double> lags = new ArrayList<>();
        whole.deltaNanos().forEach((delta, at) -> {
            Long there = resumed.deltaNanos().get(delta);
            if (there != null && at > resumed.firstByteNanos()) { // seen live after the reader had caught up
                lags.add((there - at) / 1e6);
            }
        });
        int batches = 0;
        long bytes = 0;
        Map<String, AttributeValue> start = null;
        do {
            QueryResponse r = dynamo.query(q -> q.tableName(table).keyConditionExpression("pk = :p")
                    .expressionAttributeValues(Map.of(":p", AttributeValue.fromS("OWNER#" + DevIssuer.DEV_USER + "#CONV#" + conversation))));
            for (Map<String, AttributeValue> item : r.items()) {
                if (item.get("sk").s().startsWith("STREAM#")) {
                    batches++;
                    bytes += item.get("events").s().getBytes(StandardCharsets.UTF_8).length;
                }
            }
            start = r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty() ? r.lastEvaluatedKey() : null;
        } while (start != null);
        System.out.printf(Locale.ROOT, "%-34s %8d %8d %9d %8.0f ms %7.0f ms %7.0f ms %7d ms%n",
                deltas + " deltas, " + pauseMs + " ms apart", whole.deltaNanos().size(), batches, bytes,
                percentile(lags, 50), percentile(lags, 90), percentile(lags, 100), turnMs);
    }

    /** {live, resumed}: ms from the stop request to each stream's [DONE]. */
    private static double[] measureStop(LocalDeployment stack, String token) throws Exception {
        String conversation = "bench-stop-" + System.nanoTime();
        stack.model().scriptedServer().enqueue(ModelScript.builder().turn(t -> {
            for (int i = 0; i < 100; i++) {
                t.delay(100).text("s" + i + " ");
            }
        }).build());
        CompletableFuture<Read> live = CompletableFuture.supplyAsync(() -> read(post(stack, token, conversation)));
        Thread.sleep(300);
        CompletableFuture<Read> resumed = CompletableFuture.supplyAsync(() -> read(get(stack, token, conversation)));
        Thread.sleep(700);
        long stopped = System.nanoTime();
        HTTP.send(HttpRequest.newBuilder(URI.create(stack.chatUrl() + "/" + conversation + "/stop"))
                .header("authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.discarding());
        return new double[]{(live.join().doneNanos() - stopped) / 1e6, (resumed.join().doneNanos() - stopped) / 1e6};
    }

    private static HttpResponse<java.io.InputStream> post(LocalDeployment stack, String token, String conversation) {
        ObjectNode body = Json.object().put("id", conversation).put("trigger", "submit-message");
        ObjectNode message = body.putObject("message").put("id", "u1").put("role", "user");
        message.putArray("parts").addObject().put("type", "text").put("text", "talk");
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(stack.chatUrl())).header("authorization", "Bearer " + token)
                    .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(Json.write(body))).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static HttpResponse<java.io.InputStream> get(LocalDeployment stack, String token, String conversation) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(stack.chatUrl() + "/" + conversation + "/stream"))
                    .header("authorization", "Bearer " + token).GET().build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Read read(HttpResponse<java.io.InputStream> response) {
        Map<String, Long> deltas = new HashMap<>();
        long first = 0;
        try (java.io.InputStream body = response.body()) {
            UiMessageStreamReader stream = new UiMessageStreamReader(body);
            for (JsonNode part = stream.next(); part != null; part = stream.next()) {
                long now = System.nanoTime();
                if (first == 0) {
                    first = now;
                }
                if (part.path("type").asText().equals("text-delta")) {
                    deltas.put(part.path("delta").asText(), now);
                }
            }
            if (stream.done()) {
                return new Read(deltas, first, System.nanoTime());
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        throw new IllegalStateException("no [DONE] (status " + response.statusCode() + ")");
    }

    private static double percentile(List<Double> values, int p) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(Double::compare);
        int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }
}
