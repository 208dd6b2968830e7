package dev.tablewright.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.json.Json;
import dev.tablewright.logging.MetricRecord;
import dev.tablewright.logging.Metrics;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.logging.TraceContext;
import dev.tablewright.toolcontract.ExecutionGate;
import dev.tablewright.toolcontract.InvalidInvocation;
import dev.tablewright.toolcontract.InvocationDecoder;
import dev.tablewright.toolcontract.Tool;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolError;
import dev.tablewright.toolcontract.ToolExecution;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.toolcontract.ToolOutcomeJson;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The shared base of every tool Lambda: reads the invocation (bounded), accepts the invocation envelope
 * (docs/tools.md) or bare arguments, runs the tool and answers the envelope ({@link ToolOutcome}).
 *
 * <p>It never throws and never lets a stack trace into a response: malformed input is an
 * {@code invalid_arguments} error; the gate, the tool and its failures run as {@link ToolExecution} runs them (a
 * {@code DomainFailure} answered with its code, anything else an {@code internal} error with a plain message); the
 * detail goes to the log with the request id, tool name and conversation id.
 *
 * <p>A subclass is a few lines: a public no-arg constructor (what Lambda calls, once per instance, at init)
 * that passes its {@link Tool}. Everything is built there, nothing lazily on the hot path.
 */
public abstract class ToolFunction implements RequestStreamHandler {

    /** Lambda's own limit for a synchronous invocation payload; anything larger is refused unread. */
    public static final int MAX_INVOCATION_BYTES = 6 * 1024 * 1024;

    /**
     * The check that runs before every tool: the user-input lifecycle plugs its requiresUserInput gate in here
     * (a tool whose required values are neither in its arguments nor in the session values answers
     * {@code needs_input} instead of running).
     */
    static final ExecutionGate DEFAULT_GATE = dev.tablewright.userinput.UserInputGate.INSTANCE;

    private static final StructuredLog LOG = StructuredLog.of(ToolFunction.class);

    private final ToolExecution execution;
    private final ToolDefinition definition;
    /** The stack's CloudWatch namespace of the tool's EMF record (the template's MetricsNamespace). */
    private final String metricsNamespace = Env.get("METRICS_NAMESPACE", Metrics.DEFAULT_NAMESPACE).strip();

    protected ToolFunction(Tool tool) {
        this(tool, DEFAULT_GATE);
    }

    protected ToolFunction(Tool tool, ExecutionGate gate) {
        // the log scope of the invocation names the tool and the request: the failure's line needs nothing more
        this.execution = new ToolExecution(tool, gate, (definition, failure) -> LOG.error("tool failed", failure));
        this.definition = tool.definition();
        // SnapStart: read, decode and answer one envelope before the snapshot. Its arguments are not an object, so
        // the tool itself never runs (no database, no state): only the handler's own path is warmed.
        Priming.register(definition.name(), () -> {
            try {
                handleRequest(new java.io.ByteArrayInputStream(("{\"tool\":\"" + definition.name()
                        + "\",\"toolCallId\":\"priming\",\"arguments\":\"priming\"}").getBytes(StandardCharsets.UTF_8)),
                        java.io.OutputStream.nullOutputStream(), null);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    public ToolDefinition definition() {
        return definition;
    }

    @Override
    public final void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        output.write(answer(input, context == null ? null : context.getAwsRequestId()));
        output.flush();
    }

    /** The whole invocation, bytes in to JSON bytes out; never throws. */
    public byte[] answer(InputStream input, String requestId) {
        try (StructuredLog.Scope ignored = StructuredLog.scope()) {
            StructuredLog.put("requestId", requestId);
            StructuredLog.put("toolName", definition.name());
            ToolOutcome outcome;
            try {
                ToolInvocation invocation = InvocationDecoder.decode(read(input), definition);
                // the chat turn's trace, so this invocation's lines share its traceId; else this invocation's own
                TraceContext.begin(TraceContext.parse(invocation.traceparent())
                        .orElseGet(() -> TraceContext.forInvocation(null)));
                StructuredLog.put("conversationId", invocation.conversationId());
                StructuredLog.put("toolCallId", invocation.toolCallId());
                outcome = invoke(invocation);
            } catch (InvalidInvocation e) {
                LOG.warn("invocation refused", "code", e.error().code().wireName(), "reason", e.error().message());
                outcome = ToolOutcome.error(e.error());
            }
            return encode(outcome);
        }
    }

    /** Runs the gate and the tool on a decoded invocation ({@link ToolExecution}) and writes its metric record. */
    ToolOutcome invoke(ToolInvocation invocation) {
        long started = System.nanoTime();
        LOG.debug("tool invoked", "arguments", invocation.arguments().size());
        ToolOutcome outcome = execution.run(invocation);
        // the "tool answered" line is the tool's EMF record: ToolDuration and ToolErrors by Tool
        MetricRecord.of(LOG, metricsNamespace, Metrics.TOOL).dimension(definition.name())
                .value(Metrics.TOOL_DURATION, (System.nanoTime() - started) / 1e6)
                .value(Metrics.TOOL_ERRORS, outcome.status() == ToolOutcome.Status.ERROR ? 1 : 0)
                .property("status", outcome.status().wireName())
                .property("errorCode", outcome instanceof ToolOutcome.Failed failed && failed.error().code() != null
                        ? failed.error().code().wireName() : null)
                .write();
        return outcome;
    }

    /** Reads at most {@link #MAX_INVOCATION_BYTES}; a larger payload is refused without reading the rest. */
    static String read(InputStream input) throws InvalidInvocation {
        try {
            byte[] bytes = input.readNBytes(MAX_INVOCATION_BYTES + 1);
            if (bytes.length > MAX_INVOCATION_BYTES) {
                throw new InvalidInvocation(new ToolError(ErrorCode.INVALID_ARGUMENTS,
                        "the invocation is larger than 6 MB (" + MAX_INVOCATION_BYTES + " bytes), Lambda's payload limit"));
            }
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new InvalidInvocation(new ToolError(ErrorCode.INVALID_ARGUMENTS,
                    "the invocation could not be read"));
        }
    }

    /** The outcome as JSON ({@link ToolOutcomeJson}); an answer that cannot be written is an internal error. */
    static byte[] encode(ToolOutcome outcome) {
        try {
            return Json.MAPPER.writeValueAsBytes(ToolOutcomeJson.write(outcome));
        } catch (IOException | RuntimeException e) {
            LOG.error("outcome could not be written", e);
            return "{\"status\":\"error\",\"error\":{\"code\":\"internal\",\"message\":\"the tool's answer could not be written\"}}"
                    .getBytes(StandardCharsets.UTF_8);
        }
    }
}
