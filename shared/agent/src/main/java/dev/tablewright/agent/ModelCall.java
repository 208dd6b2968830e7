package dev.tablewright.agent;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.tablewright.agent.TurnState.Interrupted;
import dev.tablewright.agent.TurnState.OutputCapReached;
import dev.tablewright.agent.model.ChatModel;
import dev.tablewright.agent.model.ModelFailure;
import dev.tablewright.agent.model.ModelMessage;
import dev.tablewright.agent.model.ModelRequest;
import dev.tablewright.agent.model.ModelRetryPolicy;
import dev.tablewright.agent.model.ModelStep;
import dev.tablewright.agent.model.ModelStreamListener;
import dev.tablewright.agent.model.ModelTool;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One model step: the call, streamed to the turn's output as text and tool calls form, retried by the one
 * {@link ModelRetryPolicy}, cut off at the turn's output cap.
 */
final class ModelCall {

    private final ChatModel model;
    private final TurnLimits limits;
    private final ModelRetryPolicy retryPolicy;
    private final Clock clock;

    ModelCall(ChatModel model, TurnLimits limits, Clock clock) {
        this.model = model;
        this.limits = limits;
        this.retryPolicy = new ModelRetryPolicy(limits.modelAttempts(), limits.retryBackoff());
        this.clock = clock;
    }

    ModelStep call(TurnState s, List<ModelMessage> messages, List<ModelTool> tools)
            throws ModelFailure, Interrupted, OutputCapReached {
        ModelRequest request = new ModelRequest(messages, tools, limits.maxOutputTokens(), s.deadline,
                cancel -> s.cancelModel = cancel);
        ModelFailure last = null;
        for (int attempt = 1; attempt <= Math.max(1, limits.modelAttempts()); attempt++) {
            s.checkClient();
            StepListener listener = new StepListener(s);
            long started = System.nanoTime();
            s.record.modelAttempts++;
            try {
                s.observed.modelCallStarted(messages);
                ModelStep step = model.stream(request, listener);
                listener.closeText();
                s.record.usage = s.record.usage.plus(step.usage());
                s.observed.modelCallEnded(step);
                return step;
            } catch (ModelFailure failure) {
                s.observed.modelCallFailed(failure);
                listener.closeText();
                listener.abandonToolCalls();
                Interrupted interrupted = interruption(s, listener); // the model's stream was cancelled: stopped or left
                if (interrupted != null) {
                    throw interrupted;
                }
                last = failure;
                switch (retryPolicy.after(failure, listener.emitted, attempt, clock.instant(), s.deadline)) {
                    case ModelRetryPolicy.GiveUp g -> throw failure;
                    case ModelRetryPolicy.OutOfTime o -> throw outOfTime();
                    case ModelRetryPolicy.Wait w -> {
                        if (!sleep(w.delay())) {
                            throw outOfTime();
                        }
                    }
                }
            } catch (OutputCapReached e) {
                listener.closeText();
                listener.abandonToolCalls();
                throw e;
            } catch (IOException e) {
                listener.closeText();
                listener.abandonToolCalls();
                Interrupted interrupted = interruption(s, listener);
                throw interrupted != null ? interrupted : new Interrupted(StopReason.CLIENT_GONE);
            } finally {
                s.record.modelNanos += System.nanoTime() - started;
                s.cancelModel = () -> { };
            }
        }
        throw last;
    }

    /**
     * The turn's interruption, if it was stopped or left: the text the model had streamed so far is kept as the
     * step's answer, so the next turn's model reads what the user saw.
     */
    private static Interrupted interruption(TurnState s, StepListener listener) {
        try {
            s.checkClient();
            return null;
        } catch (Interrupted e) {
            if (!listener.text.isEmpty()) {
                s.messages.add(new ModelMessage.Assistant(listener.text.toString(), List.of()));
            }
            return e;
        }
    }

    private static ModelFailure outOfTime() {
        return new ModelFailure(ModelFailure.Kind.OUT_OF_TIME, "The turn ran out of time while the model was busy.", false);
    }

    /** Waits before the next attempt; false when interrupted. */
    private static boolean sleep(Duration wait) {
        try {
            Thread.sleep(wait.toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Streams the model's step to the output: text as it comes, tool calls as they form. */
    private final class StepListener implements ModelStreamListener {
        private final TurnState s;
        boolean emitted;
        String textId;
        /** The step's text so far. */
        final StringBuilder text = new StringBuilder();
        /** Tool calls whose arguments are streaming: id → name, and the arguments so far. */
        final Map<String, String> openToolNames = new LinkedHashMap<>();
        final Map<String, StringBuilder> openToolInputs = new LinkedHashMap<>();

        StepListener(TurnState s) {
            this.s = s;
        }

        @Override
        public void textDelta(String delta) throws IOException {
            s.checkClient();
            countOutput(delta);
            if (textId == null) {
                textId = AgentEvent.newId("txt");
                s.emit(new AgentEvent.TextStarted(textId));
            }
            emitted = true;
            text.append(delta);
            s.emit(new AgentEvent.TextDelta(textId, delta));
            if (s.record.firstTokenNanos == 0) {
                s.record.firstTokenNanos = System.nanoTime();
            }
        }

        @Override
        public void toolCallStarted(String toolCallId, String toolName) throws IOException {
            s.checkClient();
            closeText(); // the text before a tool call is complete: a client renders it as one block
            emitted = true;
            s.emit(new AgentEvent.ToolCallStarted(toolCallId, toolName));
            openToolNames.put(toolCallId, toolName);
            openToolInputs.put(toolCallId, new StringBuilder());
            if (s.record.firstTokenNanos == 0) {
                s.record.firstTokenNanos = System.nanoTime();
            }
        }

        @Override
        public void toolCallArgumentsDelta(String toolCallId, String delta) throws IOException {
            s.checkClient();
            countOutput(delta);
            s.emit(new AgentEvent.ToolCallArgumentDelta(toolCallId, delta));
            StringBuilder input = openToolInputs.get(toolCallId);
            if (input != null) {
                input.append(delta);
            }
        }

        private void countOutput(String delta) throws OutputCapReached {
            s.record.outputChars += delta.length();
            if (s.record.outputChars > limits.maxOutputChars()) {
                throw new OutputCapReached();
            }
        }

        /** The stream failed while tool arguments were streaming: close each call before the failure is reported. */
        void abandonToolCalls() {
            openToolNames.forEach((id, name) -> s.emit(new AgentEvent.ToolCallRejected(id, name,
                    TextNode.valueOf(openToolInputs.get(id).toString()),
                    "The model's answer was cut off before this tool call's input was complete.")));
            openToolNames.clear();
            openToolInputs.clear();
        }

        void closeText() {
            if (textId != null) {
                s.emit(new AgentEvent.TextEnded(textId));
                textId = null;
            }
        }
    }
}
