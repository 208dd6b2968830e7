package dev.tablewright.agent.toolcall;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.logging.TraceContext;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.toolcontract.ToolOutcomeJson;

import java.util.Map;

/**
 * The one contract of a {@link ToolInvoker}, whatever carries the call; each invoker brings only its
 * {@link Transport} (Lambda {@code Invoke}, a template function in-process, the tool in this JVM). The invocation
 * goes as the envelope of docs/tools.md, carrying the turn's trace, to the tool's runner, which runs the tool as
 * {@code ToolExecution} does (the user-input gate, a domain failure answered with its code and fields, anything else
 * {@code internal}). What the invoker itself answers:
 * <ul>
 *   <li>a tool it has no runner for: {@code unknown_tool};</li>
 *   <li>a call that did not reach the runner or got no answer in time ({@link Unreachable}): {@code unavailable},
 *       the tool did not run and a retry may succeed;</li>
 *   <li>a runner that failed without an answer ({@link FunctionFailed}), an answer that is not a tool outcome, any
 *       other exception: {@code internal}.</li>
 * </ul>
 * The model reads only the code and a plain message: the detail (the function's own error text, a stack trace) goes
 * to the log.
 *
 * @param <R> what a tool's runner is to the transport (a function name, an in-process function, a tool)
 */
public final class EnvelopeToolInvoker<R> implements ToolInvoker {

    /** How the envelope reaches a tool's runner and its answer comes back. */
    @FunctionalInterface
    public interface Transport<R> {
        /**
         * @return the runner's answer: the tool outcome envelope
         * @throws Unreachable    the runner was not reached, or did not answer in time
         * @throws FunctionFailed the runner ran and failed without an answer (Lambda's function error)
         */
        JsonNode send(R runner, ObjectNode envelope) throws Unreachable, FunctionFailed;
    }

    /** The call did not reach the tool's runner, or got no answer in time: the tool did not run. */
    public static final class Unreachable extends Exception {
        public Unreachable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The tool's runner failed without an answer (an unhandled error in its function). */
    public static final class FunctionFailed extends Exception {
        public FunctionFailed(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private static final StructuredLog LOG = StructuredLog.of(EnvelopeToolInvoker.class);

    private final Map<String, R> runnerByTool;
    private final Transport<R> transport;

    /** @param runnerByTool tool name → its runner: the tools this invoker knows */
    public EnvelopeToolInvoker(Map<String, R> runnerByTool, Transport<R> transport) {
        this.runnerByTool = Map.copyOf(runnerByTool);
        this.transport = transport;
    }

    @Override
    public boolean knows(String toolName) {
        return runnerByTool.containsKey(toolName);
    }

    @Override
    public ToolOutcome invoke(ToolInvocation invocation) {
        R runner = runnerByTool.get(invocation.tool());
        if (runner == null) {
            return ToolOutcome.error(ErrorCode.UNKNOWN_TOOL, "no tool named '" + invocation.tool() + "' is available");
        }
        // the turn's trace goes in the envelope: the tool's lines carry the same traceId
        ToolInvocation sent = invocation.traceparent() != null ? invocation
                : invocation.withTraceparent(TraceContext.outgoing().orElse(null));
        JsonNode answer;
        try {
            answer = transport.send(runner, envelope(sent));
        } catch (Unreachable e) {
            LOG.error("tool function could not be reached", cause(e), "tool", invocation.tool(), "detail", e.getMessage());
            return ToolOutcome.error(ErrorCode.UNAVAILABLE, "the tool " + invocation.tool() + " could not be reached; try again shortly");
        } catch (FunctionFailed e) {
            LOG.error("tool function failed", cause(e), "tool", invocation.tool(), "detail", e.getMessage());
            return failed(invocation);
        } catch (RuntimeException | StackOverflowError e) {
            LOG.error("tool call failed", e, "tool", invocation.tool());
            return failed(invocation);
        }
        try {
            return ToolOutcomeJson.read(answer);
        } catch (IllegalArgumentException e) {
            LOG.error("tool function answered no tool outcome", e, "tool", invocation.tool());
            return failed(invocation);
        }
    }

    /**
     * The invocation envelope (docs/tools.md), built as a tree as {@code InvocationDecoder} reads it: the first tool
     * call of a chat function never reaches databind's bean introspection.
     */
    static ObjectNode envelope(ToolInvocation invocation) {
        ObjectNode envelope = Json.object().put("tool", invocation.tool());
        Json.putIfNotEmpty(envelope, "toolCallId", invocation.toolCallId());
        Json.putIfNotEmpty(envelope, "conversationId", invocation.conversationId());
        Json.putIfNotEmpty(envelope, "userId", invocation.userId());
        envelope.set("arguments", invocation.arguments() == null ? Json.object() : invocation.arguments());
        if (invocation.workingConfig() != null) { // only a tool that takes a config gets one: others' envelopes are unchanged
            envelope.set("workingConfig", invocation.workingConfig());
        }
        ObjectNode sessionValues = envelope.putObject("sessionValues");
        invocation.sessionValues().forEach(sessionValues::put);
        Json.putIfNotEmpty(envelope, "traceparent", invocation.traceparent());
        return envelope;
    }

    /** The log writes one exception's type and message: the transport's own, under its wrapper's message. */
    private static Throwable cause(Exception e) {
        return e.getCause() != null ? e.getCause() : e;
    }

    private static ToolOutcome failed(ToolInvocation invocation) {
        return ToolOutcome.error(ErrorCode.INTERNAL, "the tool " + invocation.tool() + " failed unexpectedly; the details are in its log");
    }
}
