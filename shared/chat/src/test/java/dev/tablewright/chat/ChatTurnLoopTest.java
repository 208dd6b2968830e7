package dev.tablewright.chat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.tools.ChatToolDefinitions;
import dev.tablewright.chat.model.ChatModel;
import dev.tablewright.chat.model.ModelFailure;
import dev.tablewright.chat.model.ModelRequest;
import dev.tablewright.chat.model.ModelStep;
import dev.tablewright.chat.model.ModelStreamListener;
import dev.tablewright.chat.model.TokenUsage;
import dev.tablewright.chat.model.ToolCallRequest;
import dev.tablewright.chat.request.ChatRequest;
import dev.tablewright.chat.request.ChatRequestParser;
import dev.tablewright.chat.stream.InMemoryResponseStream;
import dev.tablewright.chat.stream.UiMessageStreamReader;
import dev.tablewright.chat.stream.UiMessageStreamWriter;
import dev.tablewright.chat.tools.InProcessToolInvoker;
import dev.tablewright.chat.tools.UserInputPort;
import dev.tablewright.tool.ToolRegistry;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The turn's loop on its own, against a fake {@link ChatModel} (no HTTP, no tools process): what reaches the stream
 * for a text answer, a retried and a final model failure, and a call the client runs itself.
 */
class ChatTurnLoopTest {

    /** Each step: stream these deltas, then answer this step, or fail. */
    interface Step {
        ModelStep run(ModelStreamListener listener) throws ModelFailure, IOException;
    }

    static final class FakeModel implements ChatModel {
        final Deque<Step> steps = new ArrayDeque<>();
        int calls;

        @Override
        public ModelStep stream(ModelRequest request, ModelStreamListener listener) throws ModelFailure, IOException {
            calls++;
            return steps.removeFirst().run(listener);
        }
    }

    static Step text(String... deltas) {
        return listener -> {
            StringBuilder all = new StringBuilder();
            for (String d : deltas) {
                listener.textDelta(d);
                all.append(d);
            }
            return new ModelStep(all.toString(), List.of(), "stop", new TokenUsage(100, deltas.length));
        };
    }

    static Step failing(ModelFailure.Kind kind, boolean afterFirstByte) {
        return listener -> {
            if (afterFirstByte) {
                listener.textDelta("partial");
            }
            throw new ModelFailure(kind, "The model service is unavailable.", afterFirstByte);
        };
    }

    FakeModel model = new FakeModel();

    UiMessageStreamReader.Parsed run(String body) throws Exception {
        ChatTurn turn = new ChatTurn(model, new ToolRegistry(ChatToolDefinitions.ALL), new InProcessToolInvoker(List.of()),
                UserInputPort.NONE, TurnLimits.DEFAULT.withRetryBackoff(Duration.ofMillis(1)), Clock.systemUTC());
        ChatRequest request = new ChatRequestParser().parse(body);
        InMemoryResponseStream response = new InMemoryResponseStream();
        turn.run(request, "user_1", new UiMessageStreamWriter(response), Optional.empty());
        return UiMessageStreamReader.parse(response.body());
    }

    static String body(String text) {
        return "{\"id\":\"conv_loop\",\"messages\":[{\"id\":\"u1\",\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"text\":\"" + text + "\"}]}]}";
    }

    @Test
    void aTextAnswerStreamsAsItComesAndEndsWithItsUsage() throws Exception {
        model.steps.add(text("Three ", "warehouses."));
        UiMessageStreamReader.Parsed parts = run(body("how many warehouses?"));
        assertEquals(List.of("start", "start-step", "text-start", "text-delta", "text-delta", "text-end", "finish-step", "finish"), parts.types());
        JsonNode finish = parts.ofType("finish").getFirst();
        assertEquals("stop", finish.path("finishReason").asText());
        assertEquals("conv_loop", finish.path("messageMetadata").path("conversationId").asText());
        assertEquals(102, finish.path("messageMetadata").path("usage").path("totalTokens").asLong());
    }

    @Test
    void aRetryableFailureBeforeTheFirstByteIsTriedAgain() throws Exception {
        model.steps.add(failing(ModelFailure.Kind.RATE_LIMITED, false));
        model.steps.add(text("Here."));
        UiMessageStreamReader.Parsed parts = run(body("hello"));
        assertEquals(2, model.calls);
        assertTrue(parts.ofType("error").isEmpty(), parts.types().toString());
        assertEquals("stop", parts.ofType("finish").getFirst().path("finishReason").asText());
    }

    @Test
    void aFailureAfterTheFirstByteIsNotRepeatedAndEndsInAnErrorPart() throws Exception {
        model.steps.add(failing(ModelFailure.Kind.UNAVAILABLE, true));
        model.steps.add(text("never"));
        UiMessageStreamReader.Parsed parts = run(body("hello"));
        assertEquals(1, model.calls, "what reached the client is not streamed twice");
        assertEquals("The model service is unavailable.", parts.ofType("error").getFirst().path("errorText").asText());
        assertEquals("error", parts.ofType("finish").getFirst().path("finishReason").asText());
    }

    @Test
    void aCallTheClientRunsPausesTheTurn() throws Exception {
        model.steps.add(listener -> {
            listener.toolCallStarted("call_1", "show_toast");
            listener.toolCallArgumentsDelta("call_1", "{\"message\":\"saved\"}");
            return new ModelStep("", List.of(new ToolCallRequest("call_1", "show_toast", "{\"message\":\"saved\"}")), "tool_calls",
                    TokenUsage.NONE);
        });
        String body = "{\"id\":\"conv_loop\",\"clientTools\":[{\"name\":\"show_toast\",\"parameters\":{\"type\":\"object\"}}],"
                + "\"messages\":[{\"id\":\"u1\",\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"text\":\"tell me\"}]}]}";
        UiMessageStreamReader.Parsed parts = run(body);
        assertEquals("saved", parts.ofType("tool-input-available").getFirst().path("input").path("message").asText());
        assertTrue(parts.ofType("tool-output-available").isEmpty(), "the server does not run it");
        assertEquals("tool-calls", parts.ofType("finish").getFirst().path("finishReason").asText());
        assertEquals(1, model.calls);
    }

    /** The loop's events, kept in order: no UI stream involved. */
    static final class RecordedOutput implements TurnOutput {
        final List<TurnEvent> events = new java.util.ArrayList<>();
        boolean closed;

        @Override
        public void emit(TurnEvent event) {
            events.add(event);
        }

        @Override
        public boolean clientGone() {
            return false;
        }

        @Override
        public boolean closed() {
            return closed;
        }

        @Override
        public void close() {
            closed = true;
        }

        @Override
        public void onClientGone(Runnable callback) {
        }
    }

    @Test
    void theLoopEmitsTypedEventsAndKnowsNothingOfTheStream() throws Exception {
        model.steps.add(text("Hello."));
        ChatTurn turn = new ChatTurn(model, new ToolRegistry(ChatToolDefinitions.ALL), new InProcessToolInvoker(List.of()),
                UserInputPort.NONE, TurnLimits.DEFAULT, Clock.systemUTC());
        RecordedOutput out = new RecordedOutput();
        List<Optional<dev.tablewright.conversation.WorkingDraft>> ended = new java.util.ArrayList<>();
        turn.run(new ChatRequestParser().parse(body("hi")), "user_1", out, Optional.empty(), Optional.empty(), ended::add);
        assertEquals(List.of(TurnEvent.Started.class, TurnEvent.StepStarted.class, TurnEvent.TextStarted.class,
                TurnEvent.TextDelta.class, TurnEvent.TextEnded.class, TurnEvent.StepFinished.class, TurnEvent.Finished.class),
                out.events.stream().map(Object::getClass).toList());
        assertEquals(TurnEvent.Ending.STOP, ((TurnEvent.Finished) out.events.getLast()).ending());
        assertTrue(out.closed);
        assertEquals(1, ended.size(), "the end is handed over once");
    }
}

