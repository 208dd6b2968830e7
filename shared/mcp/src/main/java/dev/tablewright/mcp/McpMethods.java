package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.logging.MetricRecord;
import dev.tablewright.logging.Metrics;
import dev.tablewright.logging.StructuredLog;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The router: each JSON-RPC method served, by name, to its handler. A plain method answers a result (or refuses with
 * an {@link McpError}); a streaming one writes the whole HTTP answer itself (a tool call that asks the user first).
 * An unknown method is {@code -32601}. Every request is measured ({@link Metrics#MCP}), by method.
 */
final class McpMethods {

    /** A method answering one result. */
    @FunctionalInterface
    interface Method {
        JsonNode answer(McpRequest request) throws McpError;
    }

    /** A method writing its own answer (JSON, or an SSE stream). */
    @FunctionalInterface
    interface StreamingMethod {
        void answer(McpRequest request, HttpResponseStream response);
    }

    /** The metric records keep the endpoint's name, as before the router was its own class. */
    private static final StructuredLog LOG = StructuredLog.of(McpEndpoint.class);

    private final Map<String, StreamingMethod> methods = new LinkedHashMap<>();
    /** What every plain method's result gets before it goes out (the 2026-07-28 era: its result type and identity). */
    private final UnaryOperator<ObjectNode> shape;
    private String metricsNamespace = Metrics.DEFAULT_NAMESPACE;

    McpMethods() {
        this(UnaryOperator.identity());
    }

    McpMethods(UnaryOperator<ObjectNode> shape) {
        this.shape = shape;
    }

    McpMethods add(String name, Method method) {
        methods.put(name, (request, response) -> {
            JsonNode answer;
            try {
                JsonNode result = method.answer(request);
                answer = JsonRpc.result(request.id(), result instanceof ObjectNode o ? shape.apply(o) : result);
            } catch (McpError e) {
                answer = JsonRpc.error(request.id(), e.code(), e.getMessage(), e.data());
            }
            JsonRpc.send(response, 200, Map.of(), answer);
        });
        return this;
    }

    McpMethods addStreaming(String name, StreamingMethod method) {
        methods.put(name, method);
        return this;
    }

    void publishMetricsTo(String namespace) {
        this.metricsNamespace = namespace;
    }

    Set<String> names() {
        return methods.keySet();
    }

    void route(McpRequest request, HttpResponseStream response) {
        long started = System.nanoTime();
        StreamingMethod method = methods.get(request.method());
        if (method == null) {
            JsonRpc.send(response, 200, Map.of(), JsonRpc.error(request.id(), JsonRpc.METHOD_NOT_FOUND,
                    "Method not found: " + JsonRpc.clip(request.method())));
            measured(request.method(), started, true);
            return;
        }
        method.answer(request, response);
        measured(request.method(), started, false);
    }

    /** The request's EMF record, by method; a method the router does not serve is {@code other}. */
    void measured(String method, long startedNanos, boolean failed) {
        String dimension = methods.containsKey(method) || McpEndpoint.INITIALIZE.equals(method) ? method : "other";
        MetricRecord.of(LOG, metricsNamespace, Metrics.MCP).dimension(dimension)
                .value(Metrics.MCP_REQUEST_DURATION, (System.nanoTime() - startedNanos) / 1e6)
                .value(Metrics.MCP_ERRORS, failed ? 1 : 0)
                .write();
    }
}
