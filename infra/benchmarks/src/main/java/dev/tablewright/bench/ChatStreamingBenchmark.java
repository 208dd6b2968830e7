package dev.tablewright.bench;

import dev.tablewright.localstack.local.ApiGatewayEvents;
import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.fakes.model.RecordedRequest;
import dev.tablewright.fakes.model.ScriptedModelServer;
import dev.tablewright.fakes.runtime.Chunk;
import dev.tablewright.fakes.runtime.FunctionProcess;
import dev.tablewright.fakes.runtime.FunctionSpec;
import dev.tablewright.fakes.runtime.Invocation;
import dev.tablewright.fakes.runtime.InvocationResult;
import dev.tablewright.fakes.runtime.RuntimeApiEmulator;
import dev.tablewright.json.Json;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The chat function's streaming path, measured as a process: its jar started through {@code streaming-wrapper}
 * the way Lambda's java21 bootstrap does ({@link FunctionProcess}), the Runtime API emulator receiving the
 * streamed answer, the scripted model answering at once (zero latency), the caller signed in with the
 * development issuer.
 * <ul>
 *   <li><b>first token → first byte</b>: from the model sending its first text delta to the emulator receiving
 *       the chunk that carries it to the client (openai-java's SSE parsing, the turn, the UI stream writer, the
 *       Runtime API chunk). Both clocks are this JVM's {@code System.nanoTime()}: the model and the emulator run
 *       here.</li>
 *   <li><b>cold start</b>: process spawn → first byte of the response (the prelude), and → the whole answer; init
 *       is spawn → the runtime's first {@code /next}.</li>
 * </ul>
 * <pre>infra/bin/chat-stream-bench [--cold-runs N] [--turns N] [--snap-start] [--otlp]</pre>
 * A measurement, not a test: figures go to docs/performance.md with the command that produced them.
 */
public final class ChatStreamingBenchmark {

    private static final String LOGICAL_ID = "ChatTurnFunction";

    public static void main(String[] args) throws Exception {
        int coldRuns = 5;
        int turns = 60;
        boolean snapStart = false;
        boolean otlp = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--cold-runs" -> coldRuns = Integer.parseInt(args[++i]);
                case "--turns" -> turns = Integer.parseInt(args[++i]);
                // the runtime's SnapStart path (priming, /restore/next) before the first event; the snapshot itself
                // only happens on Lambda, so "after init" is then what a restored function's first turn costs
                case "--snap-start" -> snapStart = true;
                // GenAI spans on: OTEL_EXPORTER_OTLP_ENDPOINT at a loopback receiver that answers 200 (docs/operations.md)
                case "--otlp" -> otlp = true;
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        FunctionSpec spec = ColdStart.builtFunction(LOGICAL_ID);

        try (ScriptedModelServer model = ScriptedModelServer.start(); DevIssuer.Standalone identity = DevIssuer.startStandalone();
             dev.tablewright.fakes.http.LoopbackHttpServer receiver = dev.tablewright.fakes.http.LoopbackHttpServer.start(0, "otlp",
                     (request, response) -> {
                         request.body();
                         response.send(200, Map.of("content-type", "application/x-protobuf"), new byte[0]);
                     })) {
            Map<String, String> env = new java.util.HashMap<>(Map.of("OPENAI_BASE_URL", model.baseUrl(), "OPENAI_API_KEY", "sk-local-not-a-secret",
                    "OPENAI_MODEL", "scripted-model", "AUTH_ISSUER", identity.issuer().issuer(),
                    "AUTH_AUDIENCE", identity.issuer().audience(), "AUTH_JWKS_URL", identity.issuer().jwksUrl()));
            if (snapStart) {
                env.put("AWS_LAMBDA_INITIALIZATION_TYPE", "snap-start");
            }
            if (otlp) {
                env.put("OTEL_EXPORTER_OTLP_ENDPOINT", "http://" + receiver.hostAndPort());
            }
            String token = identity.issuer().mint(DevIssuer.DEV_USER);

            // cold starts: one fresh process each (the first one only warms the OS file cache)
            List<double[]> cold = new ArrayList<>();
            for (int run = 0; run <= coldRuns; run++) {
                try (RuntimeApiEmulator emulator = RuntimeApiEmulator.start(LOGICAL_ID);
                     FunctionProcess function = FunctionProcess.start(spec, emulator, env)) {
                    model.enqueue(answer());
                    // the event is queued once init is over, so its own latency can be told from init's
                    emulator.firstPoll().get(spec.timeoutSeconds(), java.util.concurrent.TimeUnit.SECONDS);
                    Invocation invocation = emulator.invoke(event(token).getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(spec.timeoutSeconds()));
                    InvocationResult result = await(invocation, function);
                    double toFirstByte = (invocation.chunks().getFirst().arrivedNanos() - function.startedNanos()) / 1e6;
                    double toEnd = (result.completedNanos() - function.startedNanos()) / 1e6;
                    double init = (emulator.firstPoll().get() - function.startedNanos()) / 1e6;
                    double cpu = function.cpuTime().map(d -> d.toNanos() / 1e6).orElse(Double.NaN);
                    double firstByteAfterInit = (invocation.chunks().getFirst().arrivedNanos() - invocation.enqueuedNanos()) / 1e6;
                    double answerAfterInit = (result.completedNanos() - invocation.enqueuedNanos()) / 1e6;
                    if (run > 0) {
                        cold.add(new double[]{init, toFirstByte, toEnd, cpu, firstByteAfterInit, answerAfterInit});
                        System.out.printf(Locale.ROOT, "  cold run %d: init %.0f ms, first byte %.0f ms, whole answer %.0f ms; process CPU time until then %.0f ms;"
                                        + " after init: first byte %.0f ms, whole answer %.0f ms%n",
                                run, init, toFirstByte, toEnd, cpu, firstByteAfterInit, answerAfterInit);
                    }
                }
            }

            long[] classes = classesLoaded(spec, env, token, model);

            // warm turns in one process: first model token → first client byte of that token
            List<Double> tokenToByte = new ArrayList<>();
            List<Double> turnMillis = new ArrayList<>();
            try (RuntimeApiEmulator emulator = RuntimeApiEmulator.start(LOGICAL_ID);
                 FunctionProcess function = FunctionProcess.start(spec, emulator, env)) {
                int warmup = Math.max(5, turns / 3);
                for (int i = 0; i < warmup + turns; i++) {
                    model.enqueue(answer());
                    int requestIndex = model.requests().size();
                    Invocation invocation = emulator.invoke(event(token).getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(spec.timeoutSeconds()));
                    InvocationResult result = await(invocation, function);
                    RecordedRequest request = model.awaitAnswered(requestIndex, Duration.ofSeconds(30));
                    long modelFirstToken = request.answer().contentNanos().getFirst();
                    Chunk carrying = invocation.chunks().stream().filter(c -> c.text().contains("\"delta\":\"Hello\"")).findFirst()
                            .orElseThrow(() -> new IllegalStateException("no chunk carried the first delta"));
                    if (i >= warmup) {
                        tokenToByte.add((carrying.arrivedNanos() - modelFirstToken) / 1e6);
                        turnMillis.add((result.completedNanos() - invocation.enqueuedNanos()) / 1e6);
                    }
                }
            }
            System.out.printf(Locale.ROOT, "cold start (%d runs): init median %.0f ms; first byte median %.0f ms (min %.0f, max %.0f); whole answer median %.0f ms; process CPU time median %.0f ms%n",
                    cold.size(), median(cold.stream().mapToDouble(c -> c[0]).toArray()),
                    median(cold.stream().mapToDouble(c -> c[1]).toArray()),
                    cold.stream().mapToDouble(c -> c[1]).min().orElse(0), cold.stream().mapToDouble(c -> c[1]).max().orElse(0),
                    median(cold.stream().mapToDouble(c -> c[2]).toArray()), median(cold.stream().mapToDouble(c -> c[3]).toArray()));
            System.out.printf(Locale.ROOT, "classes loaded from start through the first answer (one untimed run, the JDK's included): %d,"
                    + " of which OpenTelemetry: %d%s%n", classes[0], classes[1], otlp ? " (spans on)" : "");
            System.out.printf(Locale.ROOT, "first invocation once init%s is over: first byte median %.0f ms, whole answer median %.0f ms%n",
                    snapStart ? " (with SnapStart priming)" : "", median(cold.stream().mapToDouble(c -> c[4]).toArray()),
                    median(cold.stream().mapToDouble(c -> c[5]).toArray()));
            double[] latencies = tokenToByte.stream().mapToDouble(Double::doubleValue).toArray();
            System.out.printf(Locale.ROOT, "first model token -> client byte (%d warm turns): median %.2f ms, p90 %.2f ms, min %.2f ms, max %.2f ms%n",
                    latencies.length, median(latencies), percentile(latencies, 90), Arrays.stream(latencies).min().orElse(0),
                    Arrays.stream(latencies).max().orElse(0));
            System.out.printf(Locale.ROOT, "whole warm turn (event queued -> response ended, zero-latency model): median %.1f ms%n",
                    median(turnMillis.stream().mapToDouble(Double::doubleValue).toArray()));
        }
    }

    /**
     * One more cold run, untimed, with class loading logged to a file ({@code -Xlog:class+load}, as
     * {@code infra/bin/cold-starts} counts them): the classes the JVM loads from start through the first answer.
     */
    private static long[] classesLoaded(FunctionSpec spec, Map<String, String> env, String token, ScriptedModelServer model)
            throws Exception {
        Path log = Files.createTempFile("class-load", ".log");
        try {
            Map<String, String> logged = new java.util.HashMap<>(env);
            String options = env.getOrDefault("JAVA_TOOL_OPTIONS", spec.environment().getOrDefault("JAVA_TOOL_OPTIONS", ""));
            logged.put("JAVA_TOOL_OPTIONS", (options + " -Xlog:class+load=info:file=" + log).strip());
            try (RuntimeApiEmulator emulator = RuntimeApiEmulator.start(LOGICAL_ID);
                 FunctionProcess function = FunctionProcess.start(spec, emulator, logged)) {
                model.enqueue(answer());
                emulator.firstPoll().get(spec.timeoutSeconds(), java.util.concurrent.TimeUnit.SECONDS);
                await(emulator.invoke(event(token).getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(spec.timeoutSeconds())),
                        function);
            }
            try (var lines = Files.lines(log)) {
                List<String> loaded = lines.filter(line -> line.contains("source:")).toList();
                return new long[]{loaded.size(), loaded.stream().filter(line -> line.contains(" io.opentelemetry.")).count()};
            }
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /** A short answer: two text deltas and usage, no tool call (the streaming path, not the tool loop). */
    private static ModelScript answer() {
        return ModelScript.builder().turn(t -> t.text("Hello", " from the scripted model.").usage(900, 8)).build();
    }

    private static String event(String token) {
        String body = "{\"id\":\"bench\",\"trigger\":\"submit-message\",\"messages\":[{\"id\":\"m1\",\"role\":\"user\","
                + "\"parts\":[{\"type\":\"text\",\"text\":\"say hello\"}]}]}";
        return Json.write(ApiGatewayEvents.functionUrl("POST", "/", Map.of("content-type", "application/json",
                "authorization", "Bearer " + token), body));
    }

    private static InvocationResult await(Invocation invocation, FunctionProcess function) throws Exception {
        try {
            InvocationResult result = invocation.await(Duration.ofSeconds(120));
            if (!result.succeeded()) {
                throw new IllegalStateException("the function failed: " + result.errorType() + " " + result.errorBody() + "\n" + function.output());
            }
            return result;
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("no answer; function output:\n" + function.output(), e);
        }
    }

    static double median(double[] values) {
        return percentile(values, 50);
    }

    static double percentile(double[] values, int p) {
        if (values.length == 0) {
            return 0;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }
}
