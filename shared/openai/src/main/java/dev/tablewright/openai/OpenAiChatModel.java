package dev.tablewright.openai;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonValue;
import com.openai.core.RequestOptions;
import com.openai.core.Timeout;
import com.openai.core.http.StreamResponse;
import com.openai.errors.InternalServerException;
import com.openai.errors.OpenAIException;
import com.openai.errors.OpenAIIoException;
import com.openai.errors.OpenAIServiceException;
import com.openai.errors.PermissionDeniedException;
import com.openai.errors.RateLimitException;
import com.openai.errors.UnauthorizedException;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.chat.completions.ChatCompletionAssistantMessageParam;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionFunctionTool;
import com.openai.models.chat.completions.ChatCompletionMessageFunctionToolCall;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import com.openai.models.chat.completions.ChatCompletionSystemMessageParam;
import com.openai.models.chat.completions.ChatCompletionToolMessageParam;
import com.openai.models.chat.completions.ChatCompletionUserMessageParam;
import com.openai.models.completions.CompletionUsage;
import dev.tablewright.agent.model.ChatModel;
import dev.tablewright.agent.model.FinishReason;
import dev.tablewright.agent.model.ModelFailure;
import dev.tablewright.agent.model.ModelMessage;
import dev.tablewright.agent.model.ModelRequest;
import dev.tablewright.agent.model.ModelStep;
import dev.tablewright.agent.model.ModelStreamListener;
import dev.tablewright.agent.model.ModelTool;
import dev.tablewright.agent.model.StreamWatchdog;
import dev.tablewright.agent.model.TokenUsage;
import dev.tablewright.agent.model.ToolCallAccumulator;
import dev.tablewright.agent.model.ToolCallRequest;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;

/**
 * {@link ChatModel} over {@code openai-java} against any OpenAI-compatible endpoint: streaming chat completions
 * with tools, usage included. The client's own retries are off (the turn retries, within its time budget); the
 * stream is closed at the request's deadline, so a slow model cannot outlive the turn.
 */
public final class OpenAiChatModel implements ChatModel {

    /**
     * The OkHttp call the current thread just made: OkHttp creates a call's event listener on the calling thread, so
     * this is how {@link #stream} gets hold of the call behind openai-java's response. Only {@code Call.cancel()} may
     * stop a stream from another thread (the client-gone callback, the deadline watchdog); closing the response
     * body there races the reading thread and can leave the connection open, the model still talking.
     */
    private static final ThreadLocal<okhttp3.Call> CURRENT_CALL = new ThreadLocal<>();

    private final OpenAIClient client;
    private final ModelSettings settings;

    public OpenAiChatModel(ModelSettings settings) {
        this.settings = settings;
        this.client = OpenAIOkHttpClient.builder()
                .okHttpClient(new okhttp3.OkHttpClient.Builder().socketFactory(new NoDelaySocketFactory())
                        .eventListenerFactory(call -> {
                            CURRENT_CALL.set(call);
                            return okhttp3.EventListener.NONE;
                        })
                        .build())
                .baseUrl(settings.baseUrl())
                .apiKey(settings.apiKey() == null || settings.apiKey().isEmpty() ? "not-needed" : settings.apiKey())
                .maxRetries(0)
                .timeout(Timeout.builder().connect(Duration.ofSeconds(5)).read(settings.idleTimeout()).build())
                .build();
    }

    @Override
    public ModelStep stream(ModelRequest request, ModelStreamListener listener) throws ModelFailure, IOException {
        Duration remaining = Duration.between(Instant.now(), request.deadline());
        if (remaining.isNegative() || remaining.isZero()) {
            throw new ModelFailure(ModelFailure.Kind.OUT_OF_TIME, "The turn ran out of time before the model answered.", false);
        }
        ChatCompletionCreateParams params = params(request);
        RequestOptions options = RequestOptions.builder()
                .timeout(Timeout.builder().connect(Duration.ofSeconds(5)).read(min(settings.idleTimeout(), remaining))
                        .request(remaining).build())
                .build();
        boolean firstByte = false;
        StreamResponse<ChatCompletionChunk> response;
        okhttp3.Call call;
        try {
            response = client.chat().completions().createStreaming(params, options);
        } catch (OpenAIException e) {
            throw failure(e, false, Instant.now().isAfter(request.deadline()));
        } finally {
            call = CURRENT_CALL.get();
            CURRENT_CALL.remove();
        }
        Runnable cancel = call != null ? call::cancel : response::close;
        // idle: the client's read timeout above
        StreamWatchdog watchdog = StreamWatchdog.until(request.deadline(), cancel);
        request.cancelHook().register(cancel);
        StringBuilder text = new StringBuilder();
        ToolCallAccumulator calls = new ToolCallAccumulator(listener);
        FinishReason finishReason = null;
        TokenUsage usage = TokenUsage.NONE;
        try (response) {
            Iterator<ChatCompletionChunk> chunks = response.stream().iterator();
            while (chunks.hasNext()) {
                ChatCompletionChunk chunk = chunks.next();
                firstByte = true;
                if (chunk.usage().isPresent()) {
                    CompletionUsage u = chunk.usage().get();
                    usage = new TokenUsage(u.promptTokens(), u.completionTokens());
                }
                for (ChatCompletionChunk.Choice choice : chunk.choices()) {
                    ChatCompletionChunk.Choice.Delta delta = choice.delta();
                    String content = delta.content().orElse("");
                    if (!content.isEmpty()) {
                        text.append(content);
                        listener.textDelta(content);
                    }
                    for (ChatCompletionChunk.Choice.Delta.ToolCall tc : delta.toolCalls().orElse(List.of())) {
                        toolCallDelta(calls, tc);
                    }
                    if (choice.finishReason().isPresent()) {
                        finishReason = finishReason(choice.finishReason().get().asString());
                    }
                }
            }
        } catch (OpenAIException | java.io.UncheckedIOException e) {
            throw failure(e, firstByte, watchdog.deadlinePassed() || Instant.now().isAfter(request.deadline()));
        } finally {
            watchdog.close();
        }
        if (watchdog.deadlinePassed()) {
            throw new ModelFailure(ModelFailure.Kind.OUT_OF_TIME, "The turn ran out of time while the model was answering.", firstByte);
        }
        if (finishReason == null) {
            throw new ModelFailure(firstByte ? ModelFailure.Kind.CUT_OFF : ModelFailure.Kind.UNAVAILABLE,
                    "The model's answer was cut off before it finished.", firstByte);
        }
        return new ModelStep(text.toString(), calls.calls(""), finishReason, usage);
    }

    /** OpenAI's finish reasons in the agent's terms. */
    static FinishReason finishReason(String reason) {
        return switch (reason) {
            case "stop" -> FinishReason.STOP;
            case "tool_calls" -> FinishReason.TOOL_CALLS;
            case "length" -> FinishReason.LENGTH;
            case "content_filter" -> FinishReason.CONTENT_FILTER;
            default -> FinishReason.OTHER;
        };
    }

    /** One chunk's piece of a tool call: an id (else one is made up once the function shows), a name, arguments. */
    private static void toolCallDelta(ToolCallAccumulator calls, ChatCompletionChunk.Choice.Delta.ToolCall tc) throws IOException {
        String id = tc.id().orElse(null);
        if (tc.function().isEmpty()) {
            if (id != null) {
                calls.identify(tc.index(), id, null);
            }
            return;
        }
        ChatCompletionChunk.Choice.Delta.ToolCall.Function f = tc.function().get();
        // the first id given wins: a made-up one only counts for a call that has none yet
        calls.identify(tc.index(), id != null ? id : "call_" + tc.index() + "_" + Long.toHexString(System.nanoTime()),
                f.name().orElse(null));
        calls.arguments(tc.index(), f.arguments().orElse(""));
    }

    private static ModelFailure failure(RuntimeException e, boolean firstByte, boolean outOfTime) {
        if (outOfTime) {
            return new ModelFailure(ModelFailure.Kind.OUT_OF_TIME, "The turn ran out of time while waiting for the model.", firstByte);
        }
        if (e instanceof RateLimitException r) {
            return new ModelFailure(ModelFailure.Kind.RATE_LIMITED, "The model service is busy (rate limited).", firstByte, retryAfter(r));
        }
        if (e instanceof InternalServerException s) {
            return new ModelFailure(ModelFailure.Kind.UNAVAILABLE, "The model service is unavailable (HTTP " + s.statusCode() + ").", firstByte);
        }
        if (e instanceof UnauthorizedException || e instanceof PermissionDeniedException) {
            return new ModelFailure(ModelFailure.Kind.REJECTED, "The model service refused the configured credentials.", firstByte);
        }
        if (e instanceof OpenAIServiceException s) {
            return new ModelFailure(ModelFailure.Kind.REJECTED, "The model service rejected the request (HTTP " + s.statusCode() + ").", firstByte);
        }
        if (isTimeout(e)) {
            return new ModelFailure(ModelFailure.Kind.TIMEOUT, "The model did not answer in time.", firstByte);
        }
        if (firstByte) {
            return new ModelFailure(ModelFailure.Kind.CUT_OFF, "The connection to the model was lost mid-answer.", true);
        }
        return new ModelFailure(ModelFailure.Kind.UNAVAILABLE, "The model service could not be reached.", false);
    }

    private static boolean isTimeout(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InterruptedIOException) {
                return true;
            }
        }
        return e instanceof OpenAIIoException && String.valueOf(e.getMessage()).toLowerCase().contains("timeout");
    }

    private static Duration retryAfter(OpenAIServiceException e) {
        try {
            List<String> values = e.headers().values("retry-after");
            return values.isEmpty() ? null : Duration.ofMillis((long) (Double.parseDouble(values.get(0).strip()) * 1000));
        } catch (RuntimeException ignored) {
            return null; // an HTTP-date or garbage: fall back to our own backoff
        }
    }

    private ChatCompletionCreateParams params(ModelRequest request) {
        ChatCompletionCreateParams.Builder b = ChatCompletionCreateParams.builder()
                .model(settings.model())
                .maxCompletionTokens(request.maxOutputTokens())
                .streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build());
        for (ModelMessage m : request.messages()) {
            switch (m) {
                case ModelMessage.System s -> b.addMessage(ChatCompletionSystemMessageParam.builder().content(s.text()).build());
                case ModelMessage.User u -> b.addMessage(ChatCompletionUserMessageParam.builder().content(u.text()).build());
                case ModelMessage.Assistant a -> b.addMessage(assistant(a));
                case ModelMessage.ToolResult r -> b.addMessage(ChatCompletionToolMessageParam.builder()
                        .toolCallId(r.toolCallId()).content(r.content()).build());
            }
        }
        for (ModelTool tool : request.tools()) {
            FunctionParameters.Builder parameters = FunctionParameters.builder();
            tool.parameters().fields().forEachRemaining(f -> parameters.putAdditionalProperty(f.getKey(), JsonValue.fromJsonNode(f.getValue())));
            b.addTool(ChatCompletionFunctionTool.builder().function(FunctionDefinition.builder()
                    .name(tool.name()).description(tool.description()).parameters(parameters.build()).build()).build());
        }
        return b.build();
    }

    private static ChatCompletionAssistantMessageParam assistant(ModelMessage.Assistant a) {
        ChatCompletionAssistantMessageParam.Builder b = ChatCompletionAssistantMessageParam.builder();
        if (!a.text().isEmpty() || a.toolCalls().isEmpty()) {
            b.content(a.text());
        }
        for (ToolCallRequest call : a.toolCalls()) {
            b.addToolCall(ChatCompletionMessageFunctionToolCall.builder().id(call.id())
                    .function(ChatCompletionMessageFunctionToolCall.Function.builder()
                            .name(call.name()).arguments(call.arguments()).build())
                    .build());
        }
        return b.build();
    }

    /**
     * Sockets with Nagle's algorithm off: a request body written in several pieces otherwise waits for the peer's
     * delayed ACK (40 ms on Linux) before its last piece leaves, on every model call.
     */
    static final class NoDelaySocketFactory extends javax.net.SocketFactory {
        private final javax.net.SocketFactory plain = javax.net.SocketFactory.getDefault();

        @Override
        public java.net.Socket createSocket() throws IOException {
            return noDelay(plain.createSocket());
        }

        @Override
        public java.net.Socket createSocket(String host, int port) throws IOException {
            return noDelay(plain.createSocket(host, port));
        }

        @Override
        public java.net.Socket createSocket(String host, int port, java.net.InetAddress localHost, int localPort) throws IOException {
            return noDelay(plain.createSocket(host, port, localHost, localPort));
        }

        @Override
        public java.net.Socket createSocket(java.net.InetAddress host, int port) throws IOException {
            return noDelay(plain.createSocket(host, port));
        }

        @Override
        public java.net.Socket createSocket(java.net.InetAddress address, int port, java.net.InetAddress localAddress, int localPort) throws IOException {
            return noDelay(plain.createSocket(address, port, localAddress, localPort));
        }

        private static java.net.Socket noDelay(java.net.Socket socket) throws IOException {
            socket.setTcpNoDelay(true);
            return socket;
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    /** For logs: never includes the key. */
    @Override
    public String toString() {
        return "OpenAiChatModel[" + settings + "]";
    }

}
