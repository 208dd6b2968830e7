package dev.tablewright.aisdk;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.AgentEvent;
import dev.tablewright.agent.AgentLoop;
import dev.tablewright.agent.StopReason;
import dev.tablewright.agent.conversation.ConversationMemory;
import dev.tablewright.agent.model.TokenUsage;
import dev.tablewright.aisdk.approval.ToolApprovals;
import dev.tablewright.aisdk.request.BadChatRequest;
import dev.tablewright.aisdk.request.ChatRequest;
import dev.tablewright.aisdk.request.ChatRequestParser;
import dev.tablewright.aisdk.request.UiMessage;
import dev.tablewright.aisdk.request.UiMessages;
import dev.tablewright.aisdk.request.UiPart;
import dev.tablewright.aisdk.stream.UiChunk;
import dev.tablewright.aisdk.stream.UiMessageAssembler;
import dev.tablewright.aisdk.stream.UiMessageStreamWriter;
import dev.tablewright.conversation.StoredMessage;
import dev.tablewright.door.ConversationRoute;
import dev.tablewright.door.ConversationSession;
import dev.tablewright.door.DoorTurn;
import dev.tablewright.door.RequestBody;
import dev.tablewright.door.TurnStreams;
import dev.tablewright.failure.DomainFailure;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.http.stream.InMemoryResponseStream;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The AI SDK's chat endpoint, whatever carries it (a Lambda function URL, the local gateway): a signed-in caller's
 * request is routed (the door kit's {@link ConversationRoute}: {@code …/{id}/stream} resumes a running turn,
 * {@code …/{id}/stop} stops it; anything else is a turn), the useChat body parsed and its page checked, the user's
 * answers to tool approvals carried out ({@link ToolApprovals}), and the turn run by the kit's {@link DoorTurn}
 * (prepared, recorded while it runs, stored whole at its end) with the agent's events as the UI message stream
 * ({@link UiStreamMapper}). A refusal before the stream starts is a {@link DomainFailure}, answered by the
 * {@link Refusals} the function gives (the HTTP shape every function shares). The caller is verified, and the
 * transport's event decoded, by the function before this is called.
 */
public final class ChatEndpoint {

    private static final StructuredLog LOG = StructuredLog.of(ChatEndpoint.class);

    /** A request as the transport gave it: the HTTP method, the raw path, the body and the verified caller. */
    public record Request(String method, String rawPath, RequestBody body, String ownerId) {
    }

    /** How a refusal before the stream starts is answered: status, headers and body of the function's HTTP errors. */
    @FunctionalInterface
    public interface Refusals {
        void answer(HttpResponseStream response, DomainFailure failure);
    }

    private final ChatRequestParser parser = new ChatRequestParser();
    private final DoorTurn<UiMessage> turns;
    private final ToolApprovals approvals;
    private final Refusals refusals;

    /**
     * @param conversations the conversations a turn is stored in ({@link ConversationMemory#NONE}: the page's context
     *                  is all a turn has)
     * @param streams   the stream log of running turns ({@link TurnStreams#NONE}: not resumable)
     * @param approvals keeping a preview through the AI SDK's tool approval ({@link ToolApprovals#NONE}: never issued)
     * @param refusals  the answer to a refusal before the stream starts
     */
    public ChatEndpoint(AgentLoop agent, ConversationMemory conversations, TurnStreams streams, ToolApprovals approvals,
                        Refusals refusals) {
        this.turns = new DoorTurn<>(agent, conversations, UiMessages.FORM, streams);
        this.approvals = approvals;
        this.refusals = refusals;
    }

    private static final String PRIMING_REQUEST = "{\"id\":\"priming\",\"trigger\":\"submit-message\",\"messages\":[{\"id\":\"m1\","
            + "\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"text\":\"hello\"}]}],\"context\":{\"page\":\"tables\"}}";

    /**
     * SnapStart: what a first turn loads of this door's wire, the request parsed and a stream written (into memory;
     * nothing external is called).
     */
    public static void prime() {
        try {
            new ChatRequestParser().parse(PRIMING_REQUEST);
        } catch (BadChatRequest e) {
            throw new IllegalStateException(e);
        }
        UiMessageStreamWriter ui = new UiMessageStreamWriter(new InMemoryResponseStream());
        ui.observe(new UiMessageAssembler());
        ui.start("msg_priming", Json.object().put("conversationId", "priming"));
        ui.textStart("t");
        ui.textDelta("t", "primed");
        ui.textEnd("t");
        ui.finish(UiChunk.FinishReason.STOP, null);
        ui.done();
    }

    /** Answers one request on {@code response}; {@code deadline} bounds a turn, which stops cleanly before it. */
    public void handle(Request request, Optional<Instant> deadline, HttpResponseStream response) {
        String owner = request.ownerId();
        Optional<ConversationRoute> route = ConversationRoute.of(request.rawPath());
        if (route.isPresent()) {
            route.get().answer(request.method(), owner, turns.streams(), UiMessageStreamWriter.FRAMING, deadline, response);
            return;
        }
        ChatRequest chat;
        ConversationSession.Prepared<UiMessage> prepared;
        ToolApprovals.Answered answered;
        try {
            chat = parser.parse(request.body().text());
            if (!turns.pages().contains(chat.context().page())) {
                // an unknown page has no tools and no editable fields: refuse it rather than run a turn that can do nothing
                throw new BadChatRequest("context.page", "unknown page '" + clip(chat.context().page())
                        + "': the assistant serves " + String.join(", ", turns.pages()));
            }
            StructuredLog.put("conversationId", chat.id());
            // the user's answers to approvals are carried out first, so the turn starts from what they changed
            // (an accepted preview is the draft's saved version)
            answered = approvals.answer(owner, chat);
            ChatRequest settled = answered.request();
            prepared = turns.session().prepare(owner, settled.id(), settled.messages(), settled.newMessageOnly(), settled.context());
            if ("user".equals(prepared.history().getLast().role()) && pendingApproval(prepared.history())) {
                approvals.supersedeOpen(owner, chat.id()); // a new message instead of an answer
            }
        } catch (DomainFailure e) {
            LOG.info("chat request refused", "code", e.code().wireName(), "field", e.errors().isEmpty() ? null : e.errors().getFirst().field());
            refusals.answer(response, e);
            return;
        }
        run(owner, chat, answered, prepared, deadline, response);
    }

    /**
     * Runs the turn and ends the stream; the stored result is there before {@code [DONE]}, so before the client can
     * send the next message. A stored turn outlives its client: it runs to its end, is stored whole, and can be
     * resumed or stopped from another request while it runs. The answers' outcomes follow {@code start}; when no
     * answer was carried out now (refused, or repeated) the turn ends there, without the model and storing nothing;
     * a preview left pending ends the turn with the call that keeps it, waiting for the user's approval.
     */
    private void run(String owner, ChatRequest chat, ToolApprovals.Answered answered,
                     ConversationSession.Prepared<UiMessage> prepared, Optional<Instant> deadline, HttpResponseStream response) {
        UiMessageAssembler assistant = prepared.continuing().map(m -> new UiMessageAssembler(m.json()))
                .orElseGet(UiMessageAssembler::new);
        UiMessageStreamWriter ui = new UiMessageStreamWriter(response);
        ui.observe(assistant);
        boolean kept = turns.session().keeps(prepared);
        turns.record(owner, prepared, UiMessageStreamWriter.FRAMING, (stop, recorder) -> {
            recorder.ifPresent(ui::observe);
            String messageId = messageId(chat, prepared.history());
            UiStreamMapper mapper = new UiStreamMapper(ui, messageId, prepared.conversationId(), kept, stop);
            List<UiChunk> outcomes = answered.outcomes();
            if (!outcomes.isEmpty() && !answered.goOn()) {
                mapper.emit(new AgentEvent.TurnStarted());
                outcomes.forEach(ui::write);
                mapper.emit(new AgentEvent.Stopped(StopReason.COMPLETED, TokenUsage.NONE));
            } else {
                boolean issue = kept && chat.toolApprovals() && approvals.enabled();
                DoorTurn.Ended ended = turns.run(new DoorTurn.Turn<>(owner, prepared, messageId, chat.clientTools()),
                        new DoorTurn.Wire(mapper, () -> outcomes.forEach(ui::write), !issue ? null
                                : previewId -> approvals.issue(owner, prepared.conversationId(), messageId, previewId).map(chunks -> {
                                    chunks.forEach(ui::write);
                                    return true;
                                }).orElse(false), result -> answer(assistant.message())), deadline);
                if (!ended.stored()) {
                    ui.write(new UiChunk.Error(DoorTurn.STORE_BUSY)); // streamed but not kept: said before [DONE]
                }
            }
            ui.done();
        });
    }

    /**
     * The assistant message this turn writes: the one it resumes, the one the client asks to regenerate, or a new one.
     */
    static String messageId(ChatRequest request, List<UiMessage> history) {
        UiMessage last = history.getLast();
        if ("assistant".equals(last.role()) && last.id() != null) {
            return last.id();
        }
        return request.messageId() != null && "regenerate-message".equals(request.trigger())
                ? request.messageId() : AgentEvent.newId("msg");
    }

    /** The assistant message the turn wrote, as stored for display; none when it wrote no part. */
    private static Optional<StoredMessage> answer(ObjectNode assistant) {
        String id = assistant.path("id").asText("");
        return id.isEmpty() || assistant.path("parts").isEmpty() ? Optional.empty()
                : Optional.of(new StoredMessage(id, "assistant", Json.write(assistant)));
    }

    /** Whether a message of the conversation has a call still waiting for the user's approval. */
    private static boolean pendingApproval(List<UiMessage> messages) {
        return messages.stream().anyMatch(m -> m.parts().stream().anyMatch(p ->
                p instanceof UiPart.ToolCall call && call.state().equals("approval-requested")));
    }

    private static String clip(String value) {
        return value.length() <= 40 ? value : value.substring(0, 40) + "…";
    }
}
