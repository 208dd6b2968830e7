package dev.tablewright.invoke;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.toolcall.EnvelopeToolInvoker;
import dev.tablewright.agent.toolcall.ToolInvoker;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Runs a tool by invoking its own Lambda function (request-response): the transport of the invoker contract
 * ({@link EnvelopeToolInvoker}). Function names come from the environment the template sets:
 * {@code TOOL_FUNCTION_<TOOL_NAME>} (e.g. {@code TOOL_FUNCTION_APPLY_COLUMN_CHANGE}).
 */
public final class LambdaToolInvoker implements ToolInvoker {

    public static final String ENV_PREFIX = "TOOL_FUNCTION_";

    private final LambdaClient lambda;
    private final EnvelopeToolInvoker<String> calls;

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
        this.calls = new EnvelopeToolInvoker<>(functionByTool, this::send);
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
        return calls.knows(toolName);
    }

    @Override
    public ToolOutcome invoke(ToolInvocation invocation) {
        return calls.invoke(invocation);
    }

    /** A request-response {@code Invoke}; an SDK exception (refused, throttled, timed out) is a call that did not get through. */
    private JsonNode send(String function, ObjectNode envelope) throws EnvelopeToolInvoker.Unreachable, EnvelopeToolInvoker.FunctionFailed {
        InvokeResponse response;
        try {
            response = lambda.invoke(b -> b.functionName(function).payload(SdkBytes.fromUtf8String(Json.write(envelope))));
        } catch (SdkException e) {
            throw new EnvelopeToolInvoker.Unreachable("Invoke of " + function + " failed", e);
        }
        if (response.functionError() != null) {
            // the function's own error text stays in the log: the model gets a plain internal error
            String payload = response.payload() == null ? "" : response.payload().asUtf8String();
            throw new EnvelopeToolInvoker.FunctionFailed(function + " answered a function error (" + response.functionError()
                    + "): " + payload.substring(0, Math.min(payload.length(), 500)), null);
        }
        try {
            return Json.parse(response.payload().asUtf8String());
        } catch (JsonProcessingException e) {
            throw new EnvelopeToolInvoker.FunctionFailed(function + " answered no JSON", e);
        }
    }
}
