package dev.tablewright.invoke;

import dev.tablewright.agent.tools.ToolInvoker;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.tool.ToolOutcomeJson;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.logging.TraceContext;
import dev.tablewright.tool.ToolInvocation;
import dev.tablewright.tool.ToolOutcome;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Runs a tool by invoking its own Lambda function (request-response). Function names come from the environment
 * the template sets: {@code TOOL_FUNCTION_<TOOL_NAME>} (e.g. {@code TOOL_FUNCTION_APPLY_COLUMN_CHANGE}).
 */
public final class LambdaToolInvoker implements ToolInvoker {

    public static final String ENV_PREFIX = "TOOL_FUNCTION_";
    private static final StructuredLog LOG = StructuredLog.of(LambdaToolInvoker.class);

    private final LambdaClient lambda;
    private final Map<String, String> functionByTool;

    /**
     * The Lambda client of the chat function, built at init: the URL-connection HTTP client, the region Lambda sets
     * ({@code AWS_REGION}) and the role's credentials from the environment, so nothing probes profile files or the
     * instance metadata on a cold start.
     */
    public static LambdaClient lambdaClient(Map<String, String> env) {
        var builder = LambdaClient.builder()
                .httpClient(software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient.create());
        String region = env.get("AWS_REGION");
        if (region != null && !region.isBlank()) {
            builder.region(software.amazon.awssdk.regions.Region.of(region));
        }
        if (env.containsKey("AWS_ACCESS_KEY_ID") && env.containsKey("AWS_SECRET_ACCESS_KEY")) {
            builder.credentialsProvider(software.amazon.awssdk.auth.credentials.EnvironmentVariableCredentialsProvider.create());
        }
        return builder.build();
    }

    public LambdaToolInvoker(LambdaClient lambda, Map<String, String> functionByTool) {
        this.lambda = lambda;
        this.functionByTool = Map.copyOf(functionByTool);
    }

    /** {@code TOOL_FUNCTION_APPLY_COLUMN_CHANGE=fn-name} → {@code apply_column_change → fn-name}. */
    public static Map<String, String> functionsFromEnvironment(Map<String, String> env) {
        Map<String, String> out = new LinkedHashMap<>();
        env.forEach((k, v) -> {
            if (k.startsWith(ENV_PREFIX) && !v.isBlank()) {
                out.put(k.substring(ENV_PREFIX.length()).toLowerCase(Locale.ROOT), v);
            }
        });
        return out;
    }

    @Override
    public boolean knows(String toolName) {
        return functionByTool.containsKey(toolName);
    }

    @Override
    public ToolOutcome invoke(ToolInvocation invocation) {
        String function = functionByTool.get(invocation.tool());
        if (function == null) {
            return ToolOutcome.error("unknown_tool", "no tool named '" + invocation.tool() + "' is available");
        }
        // the turn's trace goes in the envelope: the tool function's lines carry the same traceId
        ToolInvocation sent = invocation.traceparent() != null ? invocation
                : invocation.withTraceparent(TraceContext.outgoing().orElse(null));
        try {
            InvokeResponse response = lambda.invoke(b -> b.functionName(function)
                    .payload(SdkBytes.fromUtf8String(Json.write(sent))));
            if (response.functionError() != null) {
                LOG.warn("tool function failed", "tool", invocation.tool(), "functionError", response.functionError());
                return ToolOutcome.error("internal", "the tool failed unexpectedly");
            }
            JsonNode answer = Json.parse(response.payload().asUtf8String());
            return ToolOutcomeJson.read(answer);
        } catch (Exception e) {
            LOG.error("tool function could not be invoked", e, "tool", invocation.tool());
            return ToolOutcome.error("unavailable", "the tool could not be reached; try again shortly");
        }
    }
}
