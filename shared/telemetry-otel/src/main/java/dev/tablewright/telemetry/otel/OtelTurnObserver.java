package dev.tablewright.telemetry.otel;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.StopReason;
import dev.tablewright.agent.TurnObserver;
import dev.tablewright.agent.model.ModelFailure;
import dev.tablewright.agent.model.ModelMessage;
import dev.tablewright.agent.model.ModelStep;
import dev.tablewright.agent.model.ToolCallRequest;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.toolcontract.ToolOutcomeJson;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The agent's turns as GenAI spans ({@link GenAiTracer}): the chat function's observer when
 * {@code OTEL_EXPORTER_OTLP_ENDPOINT} is set. Only {@link #fromEnvironment} is referenced from outside this module,
 * and only on that path: without an endpoint no class of it, nor of OpenTelemetry, is loaded.
 *
 * <p>Tracing never fails a turn: a span that cannot be made or sent is logged and the turn goes on.
 */
public final class OtelTurnObserver implements TurnObserver {

    private static final StructuredLog LOG = StructuredLog.of(OtelTurnObserver.class);

    private final GenAiTracer tracer;
    private final String provider;
    private final String model;

    OtelTurnObserver(GenAiTracer tracer, String provider, String model) {
        this.tracer = tracer;
        this.provider = provider;
        this.model = model;
    }

    /**
     * Spans to {@code OTEL_EXPORTER_OTLP_ENDPOINT}, with contents when
     * {@code OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT} is {@code true}.
     *
     * @param provider the {@code gen_ai.provider.name} of the model (e.g. {@code openai})
     * @param model    the model asked for ({@code gen_ai.request.model})
     */
    public static TurnObserver fromEnvironment(Map<String, String> env, String provider, String model) {
        boolean capture = "true".equalsIgnoreCase(env.getOrDefault("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "false").strip());
        return new OtelTurnObserver(GenAiTracer.toEndpoint(env.get("OTEL_EXPORTER_OTLP_ENDPOINT"), capture), provider, model);
    }

    @Override
    public void flush() {
        try {
            tracer.flush();
        } catch (RuntimeException e) {
            LOG.error("the turns' spans could not be sent", e);
        }
    }

    @Override
    public Turn turnStarted(String conversationId) {
        try {
            return new TracedTurn(tracer.startTurn(conversationId));
        } catch (RuntimeException e) {
            LOG.error("the turn's span could not be started", e);
            return Turn.NONE;
        }
    }

    private final class TracedTurn implements Turn {
        private final GenAiTracer.Turn turn;
        private GenAiTracer.ModelCall modelCall;
        /** Open tool spans by call id (ended by their answer, or by the turn's end when none came). */
        private final Map<String, GenAiTracer.ToolCall> toolCalls = new LinkedHashMap<>();

        TracedTurn(GenAiTracer.Turn turn) {
            this.turn = turn;
        }

        @Override
        public void modelCallStarted(List<ModelMessage> messages) {
            modelCall = turn.startModelCall(provider, model, () -> Json.write(messages(messages)));
        }

        @Override
        public void modelCallEnded(ModelStep step) {
            if (modelCall != null) {
                modelCall.end(step.usage().promptTokens(), step.usage().completionTokens(), step.finishReason().wireName(),
                        () -> Json.write(Json.MAPPER.createArrayNode().add(message(new ModelMessage.Assistant(step.text(), step.toolCalls())))));
                modelCall = null;
            }
        }

        @Override
        public void modelCallFailed(ModelFailure failure) {
            if (modelCall != null) {
                modelCall.fail(failure.kind().name().toLowerCase(Locale.ROOT));
                modelCall = null;
            }
        }

        @Override
        public void toolCallStarted(String toolCallId, String toolName, ObjectNode arguments) {
            toolCalls.put(toolCallId, turn.startToolCall(toolName, toolCallId, () -> Json.write(arguments)));
        }

        @Override
        public void toolCallEnded(String toolCallId, String toolName, ToolOutcome outcome) {
            GenAiTracer.ToolCall call = toolCalls.remove(toolCallId);
            if (call != null) {
                String error = outcome instanceof ToolOutcome.Failed failed
                        ? (failed.error().code() == null ? "error" : failed.error().code().wireName()) : null;
                call.end(error, () -> switch (outcome) {
                    case ToolOutcome.Ok ok when ok.output() != null -> Json.write(ok.output());
                    case ToolOutcome.Failed failed -> Json.write(ToolOutcomeJson.write(failed.error()));
                    default -> outcome.status().wireName();
                });
            }
        }

        @Override
        public void turnEnded(StopReason reason) {
            try {
                // a call the turn left (the client went away, the output cap cut the stream) still ends its span
                if (modelCall != null) {
                    modelCall.fail(reason.code());
                }
                toolCalls.values().forEach(call -> call.end(reason.code(), () -> reason.code()));
                boolean failed = reason == StopReason.MODEL_ERROR || reason == StopReason.INTERNAL_ERROR;
                turn.end(reason.code(), failed);
            } catch (RuntimeException e) {
                LOG.error("the turn's span could not be ended", e);
            }
        }
    }

    /** The messages as the GenAI conventions' {@code gen_ai.input.messages}: role and parts. */
    static ArrayNode messages(List<ModelMessage> messages) {
        ArrayNode out = Json.MAPPER.createArrayNode();
        messages.forEach(m -> out.add(message(m)));
        return out;
    }

    private static ObjectNode message(ModelMessage message) {
        ObjectNode out = Json.object();
        ArrayNode parts = Json.MAPPER.createArrayNode();
        switch (message) {
            case ModelMessage.System m -> {
                out.put("role", "system");
                parts.addObject().put("type", "text").put("content", m.text());
            }
            case ModelMessage.User m -> {
                out.put("role", "user");
                parts.addObject().put("type", "text").put("content", m.text());
            }
            case ModelMessage.Assistant m -> {
                out.put("role", "assistant");
                if (m.text() != null && !m.text().isEmpty()) {
                    parts.addObject().put("type", "text").put("content", m.text());
                }
                for (ToolCallRequest call : m.toolCalls()) {
                    parts.addObject().put("type", "tool_call").put("id", call.id()).put("name", call.name())
                            .put("arguments", call.arguments());
                }
            }
            case ModelMessage.ToolResult m -> {
                out.put("role", "tool");
                parts.addObject().put("type", "tool_call_response").put("id", m.toolCallId()).put("response", m.content());
            }
        }
        out.set("parts", parts);
        return out;
    }
}
