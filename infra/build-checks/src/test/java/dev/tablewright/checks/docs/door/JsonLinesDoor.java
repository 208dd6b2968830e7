package dev.tablewright.checks.docs.door;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.AgentEvent;
import dev.tablewright.agent.AgentLoop;
import dev.tablewright.agent.AgentOutput;
import dev.tablewright.agent.PageContext;
import dev.tablewright.agent.StopSignal;
import dev.tablewright.agent.conversation.ConversationMemory;
import dev.tablewright.agent.model.ModelMessage;
import dev.tablewright.conversation.StoredMessage;
import dev.tablewright.door.BadRequest;
import dev.tablewright.door.ConversationRoute;
import dev.tablewright.door.ConversationSession;
import dev.tablewright.door.DecisionLedger;
import dev.tablewright.door.DoorMessages;
import dev.tablewright.door.DoorTurn;
import dev.tablewright.door.FramedStream;
import dev.tablewright.door.FunctionUrlRequest;
import dev.tablewright.door.Refusals;
import dev.tablewright.door.StreamFraming;
import dev.tablewright.door.TurnStreams;
import dev.tablewright.failure.DomainFailure;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.json.Json;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A door that speaks plain JSON lines: a request is {@code {"conversationId", "id", "text"}} (a new user message) or
 * {@code {"conversationId", "answer": {"approvalId", "messageId", "toolCallId", "approved"}}} (the user's decision on
 * a kept preview); the answer is one JSON object per line, {@code start}, {@code text}, {@code preview},
 * {@code approve}, {@code decided}, and {@code end} last. Everything else is the door kit's.
 */
public final class JsonLinesDoor {

    /** A message of this door, stored as {@code {"id", "role", "text"}}. */
    public record Line(String id, String role, String text) {
    }

    /** The door's messages as the kit reads them: a user message is its text, an answer the assistant's text. */
    static final DoorMessages<Line> MESSAGES = new DoorMessages<>() {
        public String id(Line m) {
            return m.id();
        }

        public String role(Line m) {
            return m.role();
        }

        public String text(Line m) {
            return m.text();
        }

        public JsonNode json(Line m) {
            return Json.object().put("id", m.id()).put("role", m.role()).put("text", m.text());
        }

        public Line read(ObjectNode stored, String where) {
            return new Line(stored.path("id").asText(null), stored.path("role").asText("user"), stored.path("text").asText(""));
        }

        public Converted convert(List<Line> messages) {
            List<ModelMessage> out = new ArrayList<>();
            messages.forEach(m -> out.add("user".equals(m.role()) ? new ModelMessage.User(m.text())
                    : new ModelMessage.Assistant(m.text(), List.of())));
            return new Converted(out, List.of()); // this door has no client tools: nothing is left unanswered
        }
    };

    /** One JSON object per line; a turn ends with its {@code end} line. */
    static final StreamFraming FRAMING = new StreamFraming() {
        public Map<String, String> headers() {
            return Map.of("content-type", "application/x-ndjson");
        }

        public String frame(ObjectNode part) {
            return Json.write(part) + "\n";
        }

        public boolean ends(String frames) {
            return frames.contains("{\"type\":\"end\"");
        }

        public void close(HttpResponseStream response, boolean ended) {
            if (!ended) {
                response.write("{\"type\":\"end\",\"reason\":\"other\"}\n".getBytes(StandardCharsets.UTF_8));
            }
            response.close();
        }
    };

    private final DoorTurn<Line> turns;
    private final DecisionLedger ledger;

    public JsonLinesDoor(AgentLoop agent, ConversationMemory conversations, TurnStreams streams, DecisionLedger ledger) {
        this.turns = new DoorTurn<>(agent, conversations, MESSAGES, streams);
        this.ledger = ledger;
    }

    /** One function URL request of a verified caller. */
    public void handle(FunctionUrlRequest request, String ownerId, HttpResponseStream response) {
        Optional<ConversationRoute> route = ConversationRoute.of(request.rawPath());
        if (route.isPresent()) { // GET …/{id}/stream, POST …/{id}/stop: the kit's, in this door's framing
            route.get().answer(request.method(), ownerId, turns.streams(), FRAMING, Optional.empty(), response);
            return;
        }
        try {
            JsonNode body = parse(request.body());
            String conversationId = body.path("conversationId").asText(null);
            if (body.has("answer")) {
                decide(ownerId, conversationId, body.path("answer"), new FramedStream(response, FRAMING));
            } else {
                turn(ownerId, conversationId, new Line(body.path("id").asText(null), "user", body.path("text").asText("")), response);
            }
        } catch (DomainFailure e) {
            Refusals.answer(response, e);
        }
    }

    private void turn(String ownerId, String conversationId, Line message, HttpResponseStream response) throws DomainFailure {
        ConversationSession.Prepared<Line> prepared = turns.session().prepare(ownerId, conversationId, List.of(message), true,
                new PageContext(PageContext.TABLES, null, null, null));
        ledger.supersedeOpen(ownerId, conversationId); // a new message instead of an answer
        FramedStream out = new FramedStream(response, FRAMING);
        String messageId = AgentEvent.newId("msg");
        StringBuilder said = new StringBuilder();
        turns.record(ownerId, prepared, FRAMING, (stop, recorder) -> {
            recorder.ifPresent(out::observe);
            turns.run(new DoorTurn.Turn<>(ownerId, prepared, messageId, List.of()), new DoorTurn.Wire(
                    new Events(out, stop, messageId, said), () -> { },
                    previewId -> ledger.issue(ownerId, conversationId, messageId, previewId).map(call -> {
                        out.write(line("approve").put("approvalId", call.approvalId()).put("toolCallId", call.toolCallId())
                                .put("previewId", call.previewId()));
                        return true;
                    }).orElse(false),
                    result -> Optional.of(new StoredMessage(messageId, "assistant",
                            Json.write(MESSAGES.json(new Line(messageId, "assistant", said.toString())))))), Optional.empty());
            response.close();
        });
    }

    /** The user's decision on a kept preview, settled once by the kit's ledger. */
    private void decide(String ownerId, String conversationId, JsonNode answer, FramedStream out) {
        DecisionLedger.Settled settled = ledger.settle(ownerId, conversationId, new DecisionLedger.Answer(
                answer.path("approvalId").asText(""), answer.path("messageId").asText(""), answer.path("toolCallId").asText(""),
                DecisionLedger.KEEP_PREVIEW, answer.path("input"), answer.path("approved").asBoolean(false), null),
                (issued, input) -> true); // nothing beyond the stored call: this door signs nothing
        ObjectNode decided = line("decided").put("now", settled.now()).put("kept", settled instanceof DecisionLedger.Settled.Kept);
        if (settled instanceof DecisionLedger.Settled.Kept kept) {
            decided.set("saved", kept.output());
        }
        out.write(decided);
        out.write(line("end").put("reason", "completed"));
        out.response().close();
    }

    private static JsonNode parse(String body) throws BadRequest {
        try {
            return Json.parse(body);
        } catch (JsonProcessingException e) {
            throw new BadRequest("body", "the body is not JSON");
        }
    }

    static ObjectNode line(String type) {
        return Json.object().put("type", type);
    }

    /** The agent's events as lines; the turn outlives its client (it is stored whole) and stops when asked. */
    private record Events(FramedStream out, StopSignal stop, String messageId, StringBuilder said) implements AgentOutput {
        public void emit(AgentEvent event) {
            switch (event) {
                case AgentEvent.TurnStarted e -> out.write(line("start").put("messageId", messageId));
                case AgentEvent.TextDelta e -> {
                    said.append(e.delta());
                    out.write(line("text").put("delta", e.delta()));
                }
                case AgentEvent.PreviewReady e -> out.write(line("preview").put("previewId", e.previewId()));
                case AgentEvent.Stopped e -> out.write(line("end").put("reason", e.reason().name().toLowerCase()));
                default -> { } // this door shows only text, previews and the end
            }
        }

        public boolean clientGone() {
            return false;
        }

        public void onClientGone(Runnable callback) {
        }

        public boolean stopRequested() {
            return stop.isRaised();
        }

        public void onStopRequested(Runnable callback) {
            stop.onRaise(callback);
        }
    }
}
