package dev.tablewright.functions.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.door.BadRequest;
import dev.tablewright.door.FunctionUrlRequest;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.toolassembly.DoorStores;
import dev.tablewright.toolassembly.ToolAssembly;
import dev.tablewright.jwt.JwtVerifier;
import dev.tablewright.lambda.Env;
import dev.tablewright.lambda.streaming.LambdaInvocation;
import dev.tablewright.lambda.streaming.StreamingHandler;
import dev.tablewright.logging.Metrics;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.mcp.McpEndpoint;
import dev.tablewright.mcp.McpHttpRequest;
import dev.tablewright.mcp.McpToolCatalogue;
import dev.tablewright.mcp.McpToolServices;

import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The MCP function's handler (named in {@code _HANDLER}, run on a {@code RESPONSE_STREAM} function URL by the
 * streaming runtime, as the chat's): turns the function URL event into an {@link McpHttpRequest} and lets the
 * {@link McpEndpoint} answer. The no-argument constructor is the init phase: the stores, the tools as
 * {@link ToolAssembly} wires them for every door (the catalogue's registry, each tool in its own function as for the
 * chat, the input requests) and the JWT check, from the environment. No model runs here: the jar holds no model client.
 */
public final class McpFunction implements StreamingHandler {

    private final McpEndpoint endpoint;

    public McpFunction() {
        this(Env.all());
        // SnapStart: the protocol's reading and writing are loaded into the snapshot, and a JWT is verified with a
        // throwaway key (no key set fetched); the DynamoDB client primes itself (DynamoDbClients). Nothing external.
        Map<String, String> env = Env.all();
        dev.tablewright.lambda.Priming.register("mcp", () -> {
            endpoint.prime();
            JwtVerifier.fromEnvironment(env).prime();
        });
    }

    McpFunction(Map<String, String> env) {
        this(ToolAssembly.fromEnvironment(env), env);
    }

    /** The function over {@code tools} (how they run, the door's stores), the rest of its settings from {@code env}. */
    public McpFunction(ToolAssembly tools, Map<String, String> env) {
        this(tools, env, callerOf(JwtVerifier.fromEnvironment(env)), Clock.systemUTC());
    }

    /**
     * The function over {@code tools} (the assembly's, e.g. running in process) and the stores of {@code env}, its
     * caller the one {@code callerOf} proves from the authorization header, on {@code clock} (tests, benchmarks).
     */
    public McpFunction(ToolAssembly tools, Map<String, String> env, Function<String, Optional<String>> callerOf, Clock clock) {
        this.endpoint = endpoint(env, tools, callerOf, clock);
    }

    /** Its endpoint, for a caller that speaks MCP's HTTP without a function URL event (tests, benchmarks). */
    public McpEndpoint endpoint() {
        return endpoint;
    }

    private static McpEndpoint endpoint(Map<String, String> env, ToolAssembly tools,
                                        Function<String, Optional<String>> callerOf, Clock clock) {
        McpFunctionSettings settings = McpFunctionSettings.fromEnvironment(env);
        DoorStores stores = tools.doorStores();
        return new McpEndpoint(settings.mcp(), callerOf, stores.mcpSessions(),
                // MCP asks its questions through the lifecycle: it always has a table (the template's name by default)
                new McpToolServices(new McpToolCatalogue(tools.registry()), tools.tools(),
                        tools.inputRequests(stores.tables().userInput()), stores.previews(), stores.previewDecisions()),
                RequestStateKey.fromEnvironment(env), clock)
                .publishingMetricsTo(Metrics.namespace(env));
    }

    /** The caller a bearer token proves, checked like the chat's (issuer, audience, expiry, signature). */
    private static Function<String, Optional<String>> callerOf(JwtVerifier verifier) {
        return header -> {
            if (header == null) {
                return Optional.empty();
            }
            try {
                return Optional.ofNullable(verifier.verifyAuthorization(header).userId());
            } catch (JwtVerifier.Rejected e) {
                StructuredLog.of(McpFunction.class).info("token refused", "reason", e.getMessage());
                return Optional.empty();
            }
        };
    }

    @Override
    public void handle(JsonNode event, HttpResponseStream response) {
        handle(event, response, LambdaInvocation.unknown());
    }

    @Override
    public void handle(JsonNode event, HttpResponseStream response, LambdaInvocation invocation) {
        StructuredLog.put("requestId", event.path("requestContext").path("requestId").asText(null));
        try {
            endpoint.handle(request(event), response, invocation.deadlineIfKnown());
        } finally {
            StructuredLog.clear();
        }
    }

    /** A function URL event (payload format 2.0) as the endpoint's request (the door kit's decoding). */
    static McpHttpRequest request(JsonNode event) {
        FunctionUrlRequest request = FunctionUrlRequest.of(event, "GET");
        String body;
        try {
            body = request.body();
        } catch (BadRequest e) {
            body = "\u0000"; // not valid base64, or too large: not JSON, answered as a parse error
        }
        return new McpHttpRequest(request.method(), request.rawPath().isEmpty() ? "/" : request.rawPath(), request.headers(),
                body, request.headers().getOrDefault("x-forwarded-proto", "https"));
    }
}
