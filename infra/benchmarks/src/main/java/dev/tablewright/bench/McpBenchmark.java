package dev.tablewright.bench;

import dev.tablewright.toolassembly.ToolAssembly;
import dev.tablewright.localstack.local.ApiGatewayEvents;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.http.stream.InMemoryResponseStream;
import dev.tablewright.fakes.tools.InProcessToolInvoker;
import dev.tablewright.functions.mcp.McpFunction;
import dev.tablewright.fakes.dynamodb.DynamoDbLocalLauncher;
import dev.tablewright.fakes.dynamodb.TemplateTables;
import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.fakes.runtime.FunctionProcess;
import dev.tablewright.fakes.runtime.FunctionSpec;
import dev.tablewright.fakes.runtime.Invocation;
import dev.tablewright.fakes.runtime.InvocationResult;
import dev.tablewright.fakes.runtime.RuntimeApiEmulator;
import dev.tablewright.fakes.template.SamTemplate;
import dev.tablewright.json.Json;
import dev.tablewright.mcp.McpEndpoint;
import dev.tablewright.mcp.McpHttpRequest;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.tools.ApplyColumnChangeTool;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The MCP function, measured:
 * <ul>
 *   <li><b>cold start</b>: its jar started through {@code streaming-wrapper} as Lambda's java21 bootstrap does
 *       ({@link FunctionProcess}, the Runtime API emulator), DynamoDB Local with the template's tables, the
 *       development issuer; spawn → init (first {@code /next}) and spawn → the {@code initialize} answer (a session
 *       written to DynamoDB).</li>
 *   <li><b>warm overhead of {@code tools/call}</b> over the tool itself, in this JVM: {@code apply_column_change}
 *       (ungrounded) run directly, and the same call through the endpoint (JSON-RPC read and written, the session
 *       read from DynamoDB Local, the user-input gate's saved values read, the result shaped), the tool run
 *       in-process in both; and the same call as a 2026-07-28 request (no session: nothing read).</li>
 *   <li><b>an elicitation round trip</b> where the user takes {@code --user-seconds} (default 30) to answer, in each
 *       era, with the DynamoDB calls counted by a pass-through in front of DynamoDB Local: a 2025 session's call waits
 *       on its stream (one invocation billed for the whole wait, polling the question) and the answer is a second
 *       POST; a 2026 call answers {@code input_required} at once, nothing runs while the user thinks, and the retry
 *       is a second invocation.</li>
 * </ul>
 * <pre>infra/bin/mcp-bench [--cold-runs N] [--calls N] [--user-seconds N]</pre>
 * A measurement, not a test: figures go to docs/performance.md with the command that produced them.
 */
public final class McpBenchmark {

    private static final String LOGICAL_ID = "McpFunction";
    private static final String ARGUMENTS = """
            {"config": {"name": "Orders", "data_source": [{"schema": "sales", "source": "orders",
              "select": {"columns": [{"name": "id"}]}}], "visual_settings": {"columns": {"id": {"header": "ID"}}}},
             "operation": "add", "columns": [{"name": "order_number"}]}""";

    public static void main(String[] args) throws Exception {
        int coldRuns = 5;
        int calls = 300;
        int userSeconds = 30;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--cold-runs" -> coldRuns = Integer.parseInt(args[++i]);
                case "--calls" -> calls = Integer.parseInt(args[++i]);
                case "--user-seconds" -> userSeconds = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        FunctionSpec spec = ColdStart.builtFunction(LOGICAL_ID);
        try (DynamoDbLocalLauncher dynamo = DynamoDbLocalLauncher.start(); DevIssuer.Standalone identity = DevIssuer.startStandalone()) {
            TemplateTables.Created tables = new TemplateTables(SamTemplate.load(SamTemplate.locate())).createAll(dynamo.client(), "");
            Map<String, String> env = new LinkedHashMap<>(tables.environment());
            env.put("DYNAMODB_ENDPOINT", dynamo.endpoint().toString());
            env.put("AWS_REGION", "us-east-1");
            env.put("AWS_ACCESS_KEY_ID", "local");
            env.put("AWS_SECRET_ACCESS_KEY", "local");
            env.put("AUTH_ISSUER", identity.issuer().issuer());
            env.put("AUTH_AUDIENCE", identity.issuer().audience());
            env.put("AUTH_JWKS_URL", identity.issuer().jwksUrl());
            String token = identity.issuer().mint(DevIssuer.DEV_USER);
            env.put("MCP_REQUEST_STATE_KEY", "bench-key-material-0123456789abcdef0123456789");
            coldStarts(spec, env, token, coldRuns);
            warmOverhead(env, calls);
            try (CountingDynamoDb counting = CountingDynamoDb.start(dynamo.endpoint())) {
                Map<String, String> counted = new LinkedHashMap<>(env);
                counted.put("DYNAMODB_ENDPOINT", counting.endpoint().toString());
                counted.remove("AWS_ACCESS_KEY_ID");
                counted.remove("AWS_SECRET_ACCESS_KEY");
                counted.put("DATA_SOURCES", "{\"production\": {}, \"staging\": {}}");
                counted.put("MCP_ELICITATION_WAIT_SECONDS", String.valueOf(userSeconds + 30));
                McpElicitationRoundTrips.measure(counted, counting, userSeconds);
            }
        }
        System.exit(0); // DynamoDB Local leaves non-daemon threads behind
    }

    private static void coldStarts(FunctionSpec spec, Map<String, String> env, String token, int runs) throws Exception {
        if (runs <= 0) {
            return;
        }
        List<double[]> cold = new ArrayList<>();
        for (int run = 0; run <= runs; run++) {
            try (RuntimeApiEmulator emulator = RuntimeApiEmulator.start(LOGICAL_ID);
                 FunctionProcess function = FunctionProcess.start(spec, emulator, env)) {
                emulator.firstPoll().get(spec.timeoutSeconds(), TimeUnit.SECONDS);
                Invocation invocation = emulator.invoke(initializeEvent(token), Duration.ofSeconds(60));
                InvocationResult result = invocation.await(Duration.ofSeconds(120));
                if (!result.succeeded() || !result.bodyText().contains("\"protocolVersion\"")) {
                    throw new IllegalStateException("initialize failed: " + result.errorType() + " " + result.bodyText() + "\n" + function.output());
                }
                double init = (emulator.firstPoll().get() - function.startedNanos()) / 1e6;
                double answered = (result.completedNanos() - function.startedNanos()) / 1e6;
                double afterInit = (result.completedNanos() - invocation.enqueuedNanos()) / 1e6;
                double cpu = function.cpuTime().map(d -> d.toNanos() / 1e6).orElse(Double.NaN);
                if (run > 0) { // the first run only warms the file cache
                    cold.add(new double[]{init, answered, afterInit, cpu});
                    System.out.printf(Locale.ROOT, "  cold run %d: init %.0f ms, initialize answered %.0f ms (%.0f ms after init), CPU %.0f ms%n",
                            run, init, answered, afterInit, cpu);
                }
            }
        }
        System.out.printf(Locale.ROOT, "cold start (%d runs): init median %.0f ms; spawn -> initialize answered median %.0f ms "
                        + "(min %.0f, max %.0f); first request after init median %.0f ms; process CPU median %.0f ms%n",
                cold.size(), median(column(cold, 0)), median(column(cold, 1)), Arrays.stream(column(cold, 1)).min().orElse(0),
                Arrays.stream(column(cold, 1)).max().orElse(0), median(column(cold, 2)), median(column(cold, 3)));
    }

    private static void warmOverhead(Map<String, String> env, int calls) throws Exception {
        ApplyColumnChangeTool tool = new ApplyColumnChangeTool();
        // in this JVM the DynamoDB client takes DynamoDB Local's static credentials (the process has no AWS keys)
        Map<String, String> local = new LinkedHashMap<>(env);
        local.remove("AWS_ACCESS_KEY_ID");
        local.remove("AWS_SECRET_ACCESS_KEY");
        McpEndpoint endpoint = new McpFunction(ToolAssembly.fromEnvironment(local).runningToolsWith(new InProcessToolInvoker(List.of(tool))), local,
                header -> Optional.of(DevIssuer.DEV_USER), Clock.systemUTC()).endpoint();
        String session = initialize(endpoint);
        ObjectNode arguments = (ObjectNode) Json.parse(ARGUMENTS);
        ObjectNode call = Json.object().put("jsonrpc", "2.0").put("id", 1).put("method", "tools/call");
        call.putObject("params").put("name", "apply_column_change").set("arguments", arguments);
        String body = Json.write(call);
        int warmup = Math.max(50, calls / 3);
        double[] direct = new double[calls];
        double[] viaMcp = new double[calls];
        for (int i = 0; i < warmup + calls; i++) {
            long t0 = System.nanoTime();
            tool.execute(new ToolInvocation("apply_column_change", "bench", "bench", DevIssuer.DEV_USER, arguments.deepCopy(), Map.of()));
            long t1 = System.nanoTime();
            InMemoryResponseStream r = post(endpoint, session, body);
            long t2 = System.nanoTime();
            if (r.statusCode() != 200 || r.body().contains("\"isError\":true")) {
                throw new IllegalStateException("tools/call failed: " + r.body());
            }
            if (i >= warmup) {
                direct[i - warmup] = (t1 - t0) / 1e6;
                viaMcp[i - warmup] = (t2 - t1) / 1e6;
            }
        }
        System.out.printf(Locale.ROOT, "warm, %d calls: apply_column_change itself median %.2f ms (p90 %.2f); tools/call through the "
                        + "endpoint median %.2f ms (p90 %.2f); overhead median %.2f ms%n", calls, median(direct), percentile(direct, 90),
                median(viaMcp), percentile(viaMcp, 90), median(viaMcp) - median(direct));

        // the same call as a 2026-07-28 request: its _meta instead of a session, the headers mirroring the body
        ObjectNode modern = call.deepCopy();
        ObjectNode meta = ((ObjectNode) modern.get("params")).putObject("_meta").put("io.modelcontextprotocol/protocolVersion", "2026-07-28");
        meta.putObject("io.modelcontextprotocol/clientCapabilities");
        String modernBody = Json.write(modern);
        Map<String, String> modernHeaders = Map.of("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "apply_column_change");
        double[] direct26 = new double[calls];
        double[] via26 = new double[calls];
        for (int i = 0; i < warmup + calls; i++) {
            long t0 = System.nanoTime();
            tool.execute(new ToolInvocation("apply_column_change", "bench", "bench", DevIssuer.DEV_USER, arguments.deepCopy(), Map.of()));
            long t1 = System.nanoTime();
            InMemoryResponseStream r = post(endpoint, null, modernBody, modernHeaders);
            long t2 = System.nanoTime();
            if (r.statusCode() != 200 || r.body().contains("\"isError\":true") || !r.body().contains("\"resultType\":\"complete\"")) {
                throw new IllegalStateException("2026 tools/call failed: " + r.body());
            }
            if (i >= warmup) {
                direct26[i - warmup] = (t1 - t0) / 1e6;
                via26[i - warmup] = (t2 - t1) / 1e6;
            }
        }
        System.out.printf(Locale.ROOT, "warm, %d calls, 2026-07-28 (no session): apply_column_change itself median %.2f ms (p90 %.2f); "
                        + "tools/call through the endpoint median %.2f ms (p90 %.2f); overhead median %.2f ms%n", calls, median(direct26),
                percentile(direct26, 90), median(via26), percentile(via26, 90), median(via26) - median(direct26));
    }

    private static String initialize(McpEndpoint endpoint) {
        InMemoryResponseStream r = post(endpoint, null, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}");
        return r.headers().entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase("mcp-session-id")).map(Map.Entry::getValue)
                .findFirst().orElseThrow(() -> new IllegalStateException("no session: " + r.body()));
    }

    private static InMemoryResponseStream post(McpEndpoint endpoint, String session, String body) {
        return post(endpoint, session, body, Map.of());
    }

    static InMemoryResponseStream post(McpEndpoint endpoint, String session, String body, Map<String, String> extra) {
        Map<String, String> headers = new LinkedHashMap<>(extra);
        headers.put("host", "mcp.example");
        headers.put("authorization", "Bearer bench");
        if (session != null) {
            headers.put("mcp-session-id", session);
        }
        InMemoryResponseStream response = new InMemoryResponseStream();
        endpoint.handle(new McpHttpRequest("POST", "/mcp", headers, body, "https"), response, Optional.empty());
        return response;
    }

    private static byte[] initializeEvent(String token) {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}";
        return Json.write(ApiGatewayEvents.functionUrl("POST", "/mcp", Map.of("content-type", "application/json",
                "authorization", "Bearer " + token, "host", "abc.lambda-url.us-east-1.on.aws",
                "accept", "application/json, text/event-stream"), body)).getBytes(StandardCharsets.UTF_8);
    }

    private static double[] column(List<double[]> rows, int i) {
        return rows.stream().mapToDouble(r -> r[i]).toArray();
    }

    static double median(double[] values) {
        return percentile(values, 50);
    }

    static double percentile(double[] values, int p) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }
}
