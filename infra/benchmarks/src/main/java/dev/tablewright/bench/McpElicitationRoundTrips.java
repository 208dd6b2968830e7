package dev.tablewright.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.toolassembly.ToolAssembly;
import dev.tablewright.http.stream.InMemoryResponseStream;
import dev.tablewright.fakes.identity.DevIssuer;
import dev.tablewright.fakes.tools.InProcessToolInvoker;
import dev.tablewright.functions.mcp.McpFunction;
import dev.tablewright.json.Json;
import dev.tablewright.mcp.McpEndpoint;
import dev.tablewright.mcp.McpHttpRequest;
import dev.tablewright.toolcontract.Tool;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.catalogue.DatabaseToolDefinitions;

import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One question and its answer, the user taking {@code userSeconds}, in each era, on DynamoDB Local through
 * {@link CountingDynamoDb}: the invocations' durations (what Lambda bills, at 1 ms granularity) and the DynamoDB calls.
 * The question is search_database_schema's data-source choice (two data sources); the tool is a stand-in that answers
 * which database it ran on (no PostgreSQL in the loop: the figures are the protocol's).
 */
final class McpElicitationRoundTrips {

    private McpElicitationRoundTrips() {
    }

    /** search_database_schema by its name, answering the database it was given. */
    private static final class StandInSearch implements Tool {
        @Override
        public ToolDefinition definition() {
            return DatabaseToolDefinitions.SEARCH_DATABASE_SCHEMA;
        }

        @Override
        public ToolOutcome execute(ToolInvocation invocation) {
            return ToolOutcome.ok(Json.object().put("database", invocation.arguments().path("database").asText()));
        }
    }

    static void measure(Map<String, String> env, CountingDynamoDb dynamo, int userSeconds) throws Exception {
        McpEndpoint a = endpoint(env);
        McpEndpoint b = endpoint(env); // another instance: the answer (2025) and the retry (2026) land there
        warm(a, b);
        dynamo.drain();

        // 2025: initialize, the call waits on its stream; the answer is a POST to another instance after userSeconds
        long t0 = System.nanoTime();
        InMemoryResponseStream init = McpBenchmark.post(a, null, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"elicitation\":{}},\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}",
                Map.of());
        double initializeMs = (System.nanoTime() - t0) / 1e6;
        String session = init.headers().entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase("mcp-session-id"))
                .map(Map.Entry::getValue).findFirst().orElseThrow();
        Map<String, Integer> initCalls = dynamo.drain();
        Map<String, String> sessionHeader = Map.of("mcp-session-id", session);
        InMemoryResponseStream stream = new InMemoryResponseStream();
        Map<String, String> headers = new java.util.LinkedHashMap<>(sessionHeader);
        headers.put("host", "mcp.example");
        headers.put("authorization", "Bearer bench");
        long c0 = System.nanoTime();
        CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> a.handle(new McpHttpRequest("POST", "/mcp", headers,
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"search_database_schema\",\"arguments\":{\"query\":\"orders\"}}}",
                "https"), stream, Optional.empty()));
        String questionId = awaitQuestion(stream);
        Thread.sleep(userSeconds * 1000L);
        long r0 = System.nanoTime();
        InMemoryResponseStream answered = McpBenchmark.post(b, null, "{\"jsonrpc\":\"2.0\",\"id\":\"" + questionId
                + "\",\"result\":{\"action\":\"accept\",\"content\":{\"database\":\"staging\"}}}", sessionHeader);
        double answerMs = (System.nanoTime() - r0) / 1e6;
        waiting.get(userSeconds + 60L, TimeUnit.SECONDS);
        double callMs = (System.nanoTime() - c0) / 1e6;
        if (answered.statusCode() != 202 || !stream.body().contains("staging")) {
            throw new IllegalStateException("2025 round trip failed: " + answered.statusCode() + " " + stream.body());
        }
        Map<String, Integer> calls2025 = dynamo.drain();

        // 2026: input_required at once; the user thinks (nothing runs); the retry at another instance
        ObjectNode first = modernCall(null, null);
        long m0 = System.nanoTime();
        InMemoryResponseStream asked = McpBenchmark.post(a, null, Json.write(first), MODERN_HEADERS);
        double askMs = (System.nanoTime() - m0) / 1e6;
        JsonNode result = Json.parse(asked.body()).path("result");
        if (!"input_required".equals(result.path("resultType").asText())) {
            throw new IllegalStateException("2026 call did not ask: " + asked.body());
        }
        Map<String, Integer> askCalls = dynamo.drain();
        Thread.sleep(userSeconds * 1000L);
        String key = result.path("inputRequests").fieldNames().next();
        ObjectNode responses = Json.object();
        responses.putObject(key).put("action", "accept").putObject("content").put("database", "staging");
        long m1 = System.nanoTime();
        InMemoryResponseStream retried = McpBenchmark.post(b, null, Json.write(modernCall(responses, result.path("requestState").asText())),
                MODERN_HEADERS);
        double retryMs = (System.nanoTime() - m1) / 1e6;
        if (!retried.body().contains("\\\"database\\\":\\\"staging\\\"") || !retried.body().contains("\"resultType\":\"complete\"")) {
            throw new IllegalStateException("2026 retry failed: " + retried.body());
        }
        Map<String, Integer> retryCalls = dynamo.drain();

        System.out.printf(Locale.ROOT, "elicitation round trip, the user answering after %d s (warm instances, DynamoDB Local):%n", userSeconds);
        System.out.printf(Locale.ROOT, "  2025-11-25 session: initialize %.0f ms (DynamoDB %s); tools/call invocation %.0f ms billed "
                        + "(it waits on its stream); the answer's POST %.0f ms; total billed %.0f ms; DynamoDB calls during the "
                        + "call and the answer: %d %s%n", initializeMs, initCalls, callMs, answerMs, initializeMs + callMs + answerMs,
                CountingDynamoDb.total(calls2025), calls2025);
        System.out.printf(Locale.ROOT, "  2026-07-28: tools/call answered input_required in %.1f ms (DynamoDB %d %s); the retry %.1f ms "
                        + "(DynamoDB %d %s); total billed %.1f ms; DynamoDB calls %d%n", askMs, CountingDynamoDb.total(askCalls), askCalls,
                retryMs, CountingDynamoDb.total(retryCalls), retryCalls, askMs + retryMs,
                CountingDynamoDb.total(askCalls) + CountingDynamoDb.total(retryCalls));
    }

    private static final Map<String, String> MODERN_HEADERS = Map.of("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call",
            "Mcp-Name", "search_database_schema");

    private static ObjectNode modernCall(ObjectNode responses, String state) {
        ObjectNode call = Json.object().put("jsonrpc", "2.0").put("id", state == null ? 10 : 11).put("method", "tools/call");
        ObjectNode params = call.putObject("params").put("name", "search_database_schema");
        params.putObject("arguments").put("query", "orders");
        ObjectNode meta = params.putObject("_meta").put("io.modelcontextprotocol/protocolVersion", "2026-07-28");
        meta.putObject("io.modelcontextprotocol/clientCapabilities").putObject("elicitation").putObject("form");
        if (responses != null) {
            params.set("inputResponses", responses);
            params.put("requestState", state);
        }
        return call;
    }

    private static McpEndpoint endpoint(Map<String, String> env) {
        return new McpFunction(ToolAssembly.fromEnvironment(env).runningToolsWith(new InProcessToolInvoker(List.of(new StandInSearch()))), env,
                header -> Optional.of(DevIssuer.DEV_USER), Clock.systemUTC()).endpoint();
    }

    /** One untimed 2026 round trip on each instance, so both are warm (classes loaded, clients connected). */
    private static void warm(McpEndpoint a, McpEndpoint b) throws Exception {
        for (McpEndpoint e : List.of(a, b)) {
            JsonNode asked = Json.parse(McpBenchmark.post(e, null, Json.write(modernCall(null, null)), MODERN_HEADERS).body()).path("result");
            ObjectNode responses = Json.object();
            responses.putObject(asked.path("inputRequests").fieldNames().next()).put("action", "accept").putObject("content").put("database", "production");
            McpBenchmark.post(e, null, Json.write(modernCall(responses, asked.path("requestState").asText())), MODERN_HEADERS);
        }
    }

    /** The id of the question the waiting call sent on its stream (its first SSE event), once it is there. */
    private static String awaitQuestion(InMemoryResponseStream stream) throws Exception {
        for (int i = 0; i < 1000; i++) {
            for (String line : stream.body().split("\n")) {
                if (line.startsWith("data: ") && line.contains("elicitation/create")) {
                    return Json.parse(line.substring(6)).path("id").asText();
                }
            }
            Thread.sleep(10);
        }
        throw new IllegalStateException("the 2025 call asked no question: " + stream.body());
    }
}
