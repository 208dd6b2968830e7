package dev.tablewright.systemtest.chat;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.fakes.http.HttpRequest;
import dev.tablewright.fakes.http.HttpResponder;
import dev.tablewright.fakes.http.LoopbackHttpServer;
import dev.tablewright.json.Json;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.LambdaClientBuilder;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback stand-in of the Lambda API's {@code Invoke} (request-response, {@code POST
 * /2015-03-31/functions/{name}/invocations}) for the SDK's real Lambda client: each function name runs its handler
 * with the payload, as the Lambda runtime would; a handler that throws answers a function error
 * ({@code X-Amz-Function-Error: Unhandled} and the error's message), an unknown name Lambda's 404. Every invocation's
 * path and payload are kept.
 */
public final class LoopbackLambdaApi implements AutoCloseable {

    private static final String PREFIX = "/2015-03-31/functions/";

    public final List<String> invokedPaths = new CopyOnWriteArrayList<>();
    final List<JsonNode> payloads = new CopyOnWriteArrayList<>();
    private final Map<String, RequestStreamHandler> functions;
    private final LoopbackHttpServer server;

    private LoopbackLambdaApi(Map<String, RequestStreamHandler> functions) throws Exception {
        this.functions = Map.copyOf(functions);
        this.server = LoopbackHttpServer.start(0, "lambda-api", this::invoke);
    }

    /** @param functions function name → its handler */
    public static LoopbackLambdaApi start(Map<String, RequestStreamHandler> functions) throws Exception {
        return new LoopbackLambdaApi(functions);
    }

    public URI endpoint() {
        return URI.create("http://" + server.hostAndPort());
    }

    /** The SDK's Lambda client, with the chat function's HTTP client, pointed at this API. */
    LambdaClient client() {
        return clientFor(endpoint()).build();
    }

    /** The same client for any endpoint (one that refuses, one that never answers), for a test to adjust. */
    static LambdaClientBuilder clientFor(URI endpoint) {
        return LambdaClient.builder()
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(UrlConnectionHttpClient.create());
    }

    private void invoke(HttpRequest request, HttpResponder response) throws Exception {
        invokedPaths.add(request.path());
        byte[] body = request.body();
        payloads.add(Json.parse(new String(body, StandardCharsets.UTF_8)));
        String name = request.path().startsWith(PREFIX) && request.path().endsWith("/invocations")
                ? request.path().substring(PREFIX.length(), request.path().length() - "/invocations".length()) : "";
        RequestStreamHandler handler = functions.get(name);
        if (handler == null) {
            response.send(404, Map.of("content-type", "application/json", "x-amzn-ErrorType", "ResourceNotFoundException"),
                    Json.write(Map.of("Type", "User", "message", "Function not found: " + name)).getBytes(StandardCharsets.UTF_8));
            return;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            handler.handleRequest(new ByteArrayInputStream(body), out, null);
        } catch (Exception | Error e) {
            response.send(200, Map.of("content-type", "application/json", "X-Amz-Function-Error", "Unhandled"),
                    Json.write(Map.of("errorMessage", String.valueOf(e.getMessage()), "errorType", e.getClass().getName()))
                            .getBytes(StandardCharsets.UTF_8));
            return;
        }
        response.send(200, Map.of("content-type", "application/json"), out.toByteArray());
    }

    @Override
    public void close() {
        server.close();
    }
}
