package dev.tablewright.telemetry.otel;

import dev.tablewright.logging.StructuredLog;
import dev.tablewright.logging.TraceContext;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.IdGenerator;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The spans of chat turns, as the OpenTelemetry GenAI semantic conventions name them: {@code invoke_agent} for the
 * turn, {@code chat {model}} for each model call, {@code execute_tool {tool}} for each tool call, exported over
 * OTLP/HTTP with the JDK's HTTP client. The turn's span takes the turn's trace id ({@link TraceContext}), so spans
 * and log lines share one id. Spans wait in a batch only until {@link #flush}, which the chat function calls once
 * the answer is complete and before the invocation ends (a frozen Lambda container would otherwise keep them).
 *
 * <p>Prompt, answer and tool-argument contents are recorded only when {@code captureContent} is set.
 */
public final class GenAiTracer implements AutoCloseable {

    static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
    static final AttributeKey<String> PROVIDER = AttributeKey.stringKey("gen_ai.provider.name");
    static final AttributeKey<String> REQUEST_MODEL = AttributeKey.stringKey("gen_ai.request.model");
    static final AttributeKey<Long> INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
    static final AttributeKey<Long> OUTPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.output_tokens");
    static final AttributeKey<List<String>> FINISH_REASONS = AttributeKey.stringArrayKey("gen_ai.response.finish_reasons");
    static final AttributeKey<String> CONVERSATION = AttributeKey.stringKey("gen_ai.conversation.id");
    static final AttributeKey<String> AGENT_NAME = AttributeKey.stringKey("gen_ai.agent.name");
    static final AttributeKey<String> TOOL_NAME = AttributeKey.stringKey("gen_ai.tool.name");
    static final AttributeKey<String> TOOL_CALL_ID = AttributeKey.stringKey("gen_ai.tool.call.id");
    static final AttributeKey<String> TOOL_TYPE = AttributeKey.stringKey("gen_ai.tool.type");
    static final AttributeKey<String> INPUT_MESSAGES = AttributeKey.stringKey("gen_ai.input.messages");
    static final AttributeKey<String> OUTPUT_MESSAGES = AttributeKey.stringKey("gen_ai.output.messages");
    static final AttributeKey<String> TOOL_ARGUMENTS = AttributeKey.stringKey("gen_ai.tool.call.arguments");
    static final AttributeKey<String> TOOL_RESULT = AttributeKey.stringKey("gen_ai.tool.call.result");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("tablewright.outcome");

    static final String AGENT = "tablewright";
    private static final StructuredLog LOG = StructuredLog.of(GenAiTracer.class);
    /** How long the end of a turn waits for its spans to be sent; a collector that is down costs no more. */
    private static final Duration FLUSH_TIMEOUT = Duration.ofSeconds(3);

    private final SdkTracerProvider provider;
    private final Tracer tracer;
    private final boolean captureContent;

    GenAiTracer(SpanExporter exporter, boolean captureContent) {
        this.provider = SdkTracerProvider.builder()
                .setResource(Resource.getDefault().merge(Resource.create(Attributes.of(
                        AttributeKey.stringKey("service.name"), "tablewright-chat"))))
                // every turn is recorded once an endpoint is set (X-Ray's own sampling decides only X-Ray's segments)
                .setSampler(Sampler.alwaysOn())
                .setIdGenerator(new TurnTraceIds())
                // a turn's spans wait in the batch until the turn ends and flushes them: never exported mid-turn
                .addSpanProcessor(BatchSpanProcessor.builder(exporter).setScheduleDelay(Duration.ofMinutes(10))
                        .setMaxQueueSize(2048).setMaxExportBatchSize(512).build())
                .build();
        this.tracer = provider.get("dev.tablewright.chat");
        this.captureContent = captureContent;
    }

    /**
     * Spans to the OTLP/HTTP receiver at {@code endpoint} (the base URL, as {@code OTEL_EXPORTER_OTLP_ENDPOINT}
     * gives it: spans go to {@code <endpoint>/v1/traces}).
     */
    public static GenAiTracer toEndpoint(String endpoint, boolean captureContent) {
        String base = endpoint.strip();
        String url = (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + "/v1/traces";
        return new GenAiTracer(OtlpHttpSpanExporter.builder().setEndpoint(url).setTimeout(FLUSH_TIMEOUT).build(), captureContent);
    }

    public boolean capturesContent() {
        return captureContent;
    }

    /** The span of one turn, begun now. */
    public Turn startTurn(String conversationId) {
        Span span = tracer.spanBuilder("invoke_agent " + AGENT).setSpanKind(SpanKind.INTERNAL).setNoParent()
                .setAttribute(OPERATION, "invoke_agent").setAttribute(AGENT_NAME, AGENT)
                .setAttribute(CONVERSATION, conversationId).startSpan();
        return new Turn(span, conversationId);
    }

    /** One turn: its model calls and tool calls are spans under it. */
    public final class Turn {
        private final Span span;
        private final Context context;
        private final String conversationId;

        private Turn(Span span, String conversationId) {
            this.span = span;
            this.context = Context.root().with(span);
            this.conversationId = conversationId;
        }

        /** A model call; {@code inputMessages} (JSON) is read only when contents are recorded. */
        public ModelCall startModelCall(String provider, String model, Supplier<String> inputMessages) {
            var builder = tracer.spanBuilder("chat " + model).setSpanKind(SpanKind.CLIENT).setParent(context)
                    .setAttribute(OPERATION, "chat").setAttribute(PROVIDER, provider).setAttribute(REQUEST_MODEL, model)
                    .setAttribute(CONVERSATION, conversationId);
            if (captureContent) {
                builder.setAttribute(INPUT_MESSAGES, inputMessages.get());
            }
            return new ModelCall(builder.startSpan());
        }

        /** A tool call; {@code arguments} (JSON) is read only when contents are recorded. */
        public ToolCall startToolCall(String tool, String callId, Supplier<String> arguments) {
            var builder = tracer.spanBuilder("execute_tool " + tool).setSpanKind(SpanKind.INTERNAL).setParent(context)
                    .setAttribute(OPERATION, "execute_tool").setAttribute(TOOL_NAME, tool).setAttribute(TOOL_CALL_ID, callId)
                    .setAttribute(TOOL_TYPE, "function").setAttribute(CONVERSATION, conversationId);
            if (captureContent) {
                builder.setAttribute(TOOL_ARGUMENTS, arguments.get());
            }
            return new ToolCall(builder.startSpan());
        }

        /** Ends the turn's span with its outcome ({@code error}: the turn failed); {@link #flush} sends it. */
        public void end(String outcome, boolean error) {
            span.setAttribute(OUTCOME, outcome);
            if (error) {
                span.setStatus(StatusCode.ERROR);
                span.setAttribute(ERROR_TYPE, outcome);
            }
            span.end();
        }
    }

    /**
     * Sends every ended span before returning (the chat function calls it once the answer is complete); a receiver
     * that does not answer in time is logged, never thrown.
     */
    public void flush() {
        CompletableResultCode flushed = provider.forceFlush().join(FLUSH_TIMEOUT.toMillis() + 500, TimeUnit.MILLISECONDS);
        if (!flushed.isSuccess()) {
            LOG.warn("the turn's spans could not be sent", "done", flushed.isDone());
        }
    }

    public final class ModelCall {
        private final Span span;

        private ModelCall(Span span) {
            this.span = span;
        }

        /** Usage and finish reason of the call; {@code outputMessages} (JSON) is read only when contents are recorded. */
        public void end(long inputTokens, long outputTokens, String finishReason, Supplier<String> outputMessages) {
            span.setAttribute(INPUT_TOKENS, inputTokens);
            span.setAttribute(OUTPUT_TOKENS, outputTokens);
            if (finishReason != null) {
                span.setAttribute(FINISH_REASONS, List.of(finishReason));
            }
            if (captureContent) {
                span.setAttribute(OUTPUT_MESSAGES, outputMessages.get());
            }
            span.end();
        }

        /** The call failed ({@code errorType}: the failure's kind). */
        public void fail(String errorType) {
            span.setStatus(StatusCode.ERROR);
            span.setAttribute(ERROR_TYPE, errorType);
            span.end();
        }
    }

    public final class ToolCall {
        private final Span span;

        private ToolCall(Span span) {
            this.span = span;
        }

        /** The tool's answer: {@code errorCode} when it answered an error; {@code result} (JSON) only with contents. */
        public void end(String errorCode, Supplier<String> result) {
            if (errorCode != null) {
                span.setStatus(StatusCode.ERROR);
                span.setAttribute(ERROR_TYPE, errorCode);
            }
            if (captureContent) {
                span.setAttribute(TOOL_RESULT, result.get());
            }
            span.end();
        }
    }

    @Override
    public void close() {
        provider.shutdown().join(FLUSH_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** A turn's root span takes the turn's trace id (the log lines' traceId); span ids are random. */
    private static final class TurnTraceIds implements IdGenerator {
        private final IdGenerator random = IdGenerator.random();

        @Override
        public String generateSpanId() {
            return random.generateSpanId();
        }

        @Override
        public String generateTraceId() {
            return TraceContext.current().map(TraceContext::traceId).orElseGet(random::generateTraceId);
        }
    }
}
