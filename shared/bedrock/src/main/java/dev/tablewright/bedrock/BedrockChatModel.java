package dev.tablewright.bedrock;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.agent.model.ChatModel;
import dev.tablewright.agent.model.FinishReason;
import dev.tablewright.agent.model.ModelFailure;
import dev.tablewright.agent.model.ModelRequest;
import dev.tablewright.agent.model.ModelStep;
import dev.tablewright.agent.model.ModelStreamListener;
import dev.tablewright.agent.model.StreamWatchdog;
import dev.tablewright.agent.model.TokenUsage;
import dev.tablewright.agent.model.ToolCallAccumulator;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.eventstream.HeaderValue;
import software.amazon.awssdk.eventstream.Message;
import software.amazon.awssdk.eventstream.MessageDecoder;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@link ChatModel} on Amazon Bedrock Runtime's ConverseStream ({@code POST /model/{modelId}/converse-stream}):
 * the request SigV4-signed with the SDK's signer and credentials from the default chain, sent over the JDK's HTTP
 * client, the answer's event stream decoded frame by frame as it arrives. No Bedrock SDK client: its event streams
 * need an async HTTP client (Netty or the CRT), which costs the chat function's cold start (docs/performance.md).
 *
 * <p>As with the OpenAI model: one call is one attempt (the turn retries); text and tool-call input reach the listener
 * as they arrive; the stream is closed at the request's deadline, when it stays silent longer than the idle timeout,
 * and when the turn's cancel hook runs (the client went away).
 */
public final class BedrockChatModel implements ChatModel {

    private static final StructuredLog LOG = StructuredLog.of(BedrockChatModel.class);
    private static final AwsV4HttpSigner SIGNER = AwsV4HttpSigner.create();
    private static final int MAX_ERROR_BODY_BYTES = 64 * 1024;

    private final BedrockSettings settings;
    private final AwsCredentialsProvider credentials;
    private final URI converseStream;
    private final HttpClient http;

    /** With the SDK's default credentials chain (the function's role in Lambda; env, profile or SSO locally). */
    public BedrockChatModel(BedrockSettings settings) {
        this(settings, DefaultCredentialsProvider.builder().build());
    }

    public BedrockChatModel(BedrockSettings settings, AwsCredentialsProvider credentials) {
        this.settings = settings;
        this.credentials = credentials;
        this.converseStream = URI.create(settings.endpoint() + "/model/" + SdkHttpUtils.urlEncode(settings.modelId()) + "/converse-stream");
        // HTTP/1.1: one stream per connection, so closing the body is what stops the model (no h2c upgrade either)
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    }

    @Override
    public ModelStep stream(ModelRequest request, ModelStreamListener listener) throws ModelFailure, IOException {
        Duration remaining = Duration.between(Instant.now(), request.deadline());
        if (remaining.isNegative() || remaining.isZero()) {
            throw new ModelFailure(ModelFailure.Kind.OUT_OF_TIME, "The turn ran out of time before the model answered.", false);
        }
        byte[] body = Json.write(ConverseRequest.body(request)).getBytes(StandardCharsets.UTF_8);
        HttpRequest signed = sign(body, min(settings.idleTimeout(), remaining));

        AtomicReference<InputStream> open = new AtomicReference<>();
        CompletableFuture<HttpResponse<InputStream>> sent = http.sendAsync(signed, HttpResponse.BodyHandlers.ofInputStream());
        Runnable cancel = () -> {
            sent.cancel(true);
            closeQuietly(open.get());
        };
        // the JDK client has no read timeout of its own: the watchdog watches the stream's silence too
        StreamWatchdog watchdog = StreamWatchdog.until(request.deadline(), cancel).silentAfter(settings.idleTimeout());
        request.cancelHook().register(cancel);
        try {
            HttpResponse<InputStream> response = headers(sent, watchdog);
            InputStream in = response.body();
            open.set(in);
            watchdog.streaming();
            if (sent.isCancelled()) {
                closeQuietly(in); // cancelled between the headers' arrival and open.set
            }
            if (response.statusCode() != 200) {
                throw httpError(response, in);
            }
            return read(in, listener, watchdog);
        } finally {
            watchdog.close();
            closeQuietly(open.get());
        }
    }

    private HttpRequest sign(byte[] body, Duration headersTimeout) throws ModelFailure {
        AwsCredentialsIdentity identity;
        try {
            identity = credentials.resolveCredentials();
        } catch (RuntimeException e) {
            LOG.warn("no AWS credentials for Bedrock", "cause", String.valueOf(e.getMessage()));
            throw new ModelFailure(ModelFailure.Kind.REJECTED, "The chat function found no AWS credentials to call Bedrock with "
                    + "(its role in AWS; locally AWS_PROFILE or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY).", false);
        }
        SdkHttpRequest unsigned = SdkHttpRequest.builder().method(SdkHttpMethod.POST).uri(converseStream)
                .putHeader("Content-Type", "application/json")
                .putHeader("Accept", ConverseStreamEvents.CONTENT_TYPE)
                .build();
        SignedRequest signedRequest = SIGNER.sign(r -> r.identity(identity).request(unsigned)
                .payload(ContentStreamProvider.fromByteArrayUnsafe(body))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "bedrock")
                .putProperty(AwsV4HttpSigner.REGION_NAME, settings.region()));
        HttpRequest.Builder out = HttpRequest.newBuilder(converseStream).timeout(headersTimeout)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        signedRequest.request().forEachHeader((name, values) -> {
            // the JDK client writes Host and Content-Length itself (the same values the signature covers)
            if (!name.equalsIgnoreCase("Host") && !name.equalsIgnoreCase("Content-Length")) {
                values.forEach(v -> out.header(name, v));
            }
        });
        return out.build();
    }

    private static HttpResponse<InputStream> headers(CompletableFuture<HttpResponse<InputStream>> sent, StreamWatchdog watchdog)
            throws ModelFailure, IOException {
        try {
            return sent.get();
        } catch (CancellationException e) {
            if (watchdog.deadlinePassed()) {
                throw new ModelFailure(ModelFailure.Kind.OUT_OF_TIME, "The turn ran out of time while waiting for the model.", false);
            }
            throw new IOException("the model call was cancelled");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the model", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (watchdog.deadlinePassed()) {
                throw new ModelFailure(ModelFailure.Kind.OUT_OF_TIME, "The turn ran out of time while waiting for the model.", false);
            }
            if (cause instanceof HttpTimeoutException) {
                throw new ModelFailure(ModelFailure.Kind.TIMEOUT, "The model did not answer in time.", false);
            }
            throw new ModelFailure(ModelFailure.Kind.UNAVAILABLE, "Bedrock could not be reached.", false);
        }
    }

    private ModelFailure httpError(HttpResponse<InputStream> response, InputStream in) {
        String type = response.headers().firstValue("x-amzn-ErrorType").orElse(null);
        String message = null;
        try {
            byte[] bytes = in.readNBytes(MAX_ERROR_BODY_BYTES);
            JsonNode error = Json.parse(new String(bytes, StandardCharsets.UTF_8));
            if (type == null) {
                type = error.path("__type").asText(null);
            }
            message = error.has("message") ? error.path("message").asText() : error.path("Message").asText(null);
        } catch (Exception unreadable) {
            // the status alone says enough
        }
        String name = type == null || type.isBlank() ? BedrockErrorTypes.ofStatus(response.statusCode()) : BedrockFailures.shortName(type);
        LOG.warn("Bedrock refused the request", "status", response.statusCode(), "error", name, "modelId", settings.modelId(),
                "detail", String.valueOf(message));
        return BedrockFailures.of(name, message, settings, false, retryAfter(response));
    }

    private ModelStep read(InputStream in, ModelStreamListener listener, StreamWatchdog watchdog) throws ModelFailure, IOException {
        StepState state = new StepState(listener);
        List<Message> frames = new ArrayList<>();
        MessageDecoder decoder = new MessageDecoder(frames::add);
        byte[] buffer = new byte[8192];
        try {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                watchdog.heard();
                try {
                    decoder.feed(buffer, 0, n);
                } catch (RuntimeException corrupt) {
                    throw new ModelFailure(state.emitted ? ModelFailure.Kind.CUT_OFF : ModelFailure.Kind.UNAVAILABLE,
                            "Bedrock's answer could not be read (a damaged event-stream frame).", state.emitted);
                }
                for (Message frame : frames) {
                    frame(frame, state, listener);
                }
                frames.clear();
            }
        } catch (IOException e) {
            if (state.listenerFailed) {
                throw e; // the client went away: the caller knows what to do
            }
            throw lost(state, watchdog);
        }
        if (watchdog.deadlinePassed() || watchdog.wentSilent()) {
            throw lost(state, watchdog);
        }
        if (state.finishReason == null) {
            throw new ModelFailure(state.emitted ? ModelFailure.Kind.CUT_OFF : ModelFailure.Kind.UNAVAILABLE,
                    "The model's answer was cut off before it finished.", state.emitted);
        }
        return new ModelStep(state.text.toString(), state.calls.calls("{}"), state.finishReason, state.usage);
    }

    private ModelFailure lost(StepState state, StreamWatchdog watchdog) {
        if (watchdog.deadlinePassed()) {
            return new ModelFailure(ModelFailure.Kind.OUT_OF_TIME, "The turn ran out of time while the model was answering.", state.emitted);
        }
        if (watchdog.wentSilent()) {
            return new ModelFailure(ModelFailure.Kind.TIMEOUT, "The model went silent mid-answer.", state.emitted);
        }
        return state.emitted
                ? new ModelFailure(ModelFailure.Kind.CUT_OFF, "The connection to the model was lost mid-answer.", true)
                : new ModelFailure(ModelFailure.Kind.UNAVAILABLE, "The connection to Bedrock was lost before the model answered.", false);
    }

    private void frame(Message frame, StepState state, ModelStreamListener listener) throws ModelFailure, IOException {
        Map<String, HeaderValue> headers = frame.getHeaders();
        String messageType = header(headers, ":message-type");
        if ("exception".equals(messageType)) {
            String type = header(headers, ":exception-type");
            String message = null;
            try {
                message = Json.parse(new String(frame.getPayload(), StandardCharsets.UTF_8)).path("message").asText(null);
            } catch (Exception unreadable) {
                // the type alone says enough
            }
            LOG.warn("Bedrock's stream ended in an exception", "error", String.valueOf(type), "modelId", settings.modelId(),
                    "detail", String.valueOf(message));
            throw BedrockFailures.of(type, message, settings, state.emitted, null);
        }
        if ("error".equals(messageType)) {
            String code = header(headers, ":error-code");
            LOG.warn("Bedrock's stream ended in an error", "error", String.valueOf(code), "modelId", settings.modelId());
            throw BedrockFailures.of(code, header(headers, ":error-message"), settings, state.emitted, null);
        }
        String eventType = header(headers, ":event-type");
        if (eventType == null) {
            return;
        }
        JsonNode event = Json.parse(new String(frame.getPayload(), StandardCharsets.UTF_8));
        try {
            switch (eventType) {
                case "contentBlockStart" -> {
                    JsonNode use = event.path("start").path("toolUse");
                    if (use.isObject()) {
                        int index = event.path("contentBlockIndex").asInt();
                        state.emitted = true;
                        state.calls.identify(index, use.path("toolUseId").asText("call_" + (state.calls.size()
                                + (state.calls.has(index) ? 0 : 1))), use.path("name").asText());
                    }
                }
                case "contentBlockDelta" -> {
                    JsonNode delta = event.path("delta");
                    if (delta.has("text")) {
                        String text = delta.get("text").asText();
                        if (!text.isEmpty()) {
                            state.text.append(text);
                            state.emitted = true;
                            listener.textDelta(text);
                        }
                    } else if (delta.has("toolUse")) {
                        int index = event.path("contentBlockIndex").asInt();
                        if (state.calls.has(index)) { // a fragment of a block that never started is dropped
                            state.calls.arguments(index, delta.path("toolUse").path("input").asText(""));
                        }
                    }
                    // reasoningContent and other block kinds are not part of the turn
                }
                case "messageStop" -> state.finishReason = finishReason(event.path("stopReason").asText(""));
                case "metadata" -> {
                    JsonNode usage = event.path("usage");
                    if (usage.isObject()) {
                        state.usage = new TokenUsage(usage.path("inputTokens").asLong(), usage.path("outputTokens").asLong());
                    }
                }
                default -> {
                    // messageStart, contentBlockStop: nothing to pass on
                }
            }
        } catch (IOException e) {
            state.listenerFailed = true;
            throw e;
        }
    }

    /** Bedrock's stop reasons in the agent's terms. */
    static FinishReason finishReason(String stopReason) {
        return switch (stopReason) {
            case "end_turn", "stop_sequence", "" -> FinishReason.STOP;
            case "tool_use" -> FinishReason.TOOL_CALLS;
            case "max_tokens", "model_context_window_exceeded" -> FinishReason.LENGTH;
            case "guardrail_intervened", "content_filtered" -> FinishReason.CONTENT_FILTER;
            default -> FinishReason.OTHER;
        };
    }

    private static String header(Map<String, HeaderValue> headers, String name) {
        HeaderValue value = headers.get(name);
        return value == null ? null : value.getString();
    }

    private static Duration retryAfter(HttpResponse<?> response) {
        try {
            return response.headers().firstValue("Retry-After")
                    .map(v -> Duration.ofMillis((long) (Double.parseDouble(v.strip()) * 1000))).orElse(null);
        } catch (RuntimeException ignored) {
            return null; // an HTTP-date or garbage: the policy's own backoff
        }
    }

    private static void closeQuietly(InputStream in) {
        if (in != null) {
            try {
                in.close();
            } catch (IOException ignored) {
                // closing is all we wanted
            }
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static final class StepState {
        final StringBuilder text = new StringBuilder();
        final ToolCallAccumulator calls;
        FinishReason finishReason;
        TokenUsage usage = TokenUsage.NONE;
        boolean emitted;
        boolean listenerFailed;

        StepState(ModelStreamListener listener) {
            this.calls = new ToolCallAccumulator(listener);
        }
    }

    @Override
    public String toString() {
        return "BedrockChatModel[" + settings + "]";
    }
}
