package dev.tablewright.aisdk;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.conversation.ConversationState;
import dev.tablewright.aisdk.approval.ToolApprovals;
import dev.tablewright.aisdk.request.BadChatRequest;
import dev.tablewright.aisdk.request.ChatRequest;
import dev.tablewright.aisdk.request.ChatRequestParser;
import dev.tablewright.aisdk.request.UiMessage;
import dev.tablewright.aisdk.request.UiMessages;
import dev.tablewright.aisdk.request.UiPart;
import dev.tablewright.aisdk.stream.UiMessageAssembler;
import dev.tablewright.aisdk.stream.UiMessageStreamWriter;
import dev.tablewright.conversation.StoredMessage;
import dev.tablewright.door.BadRequest;
import dev.tablewright.door.ConversationRoute;
import dev.tablewright.door.ConversationSession;
import dev.tablewright.door.TurnStreams;
import dev.tablewright.failure.DomainFailure;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;

import java.time.Instant;
import java.util.Optional;

/**
 * The AI SDK's chat endpoint, whatever carries it (a Lambda function URL, the local gateway): a signed-in caller's
 * request is routed (the door kit's {@link ConversationRoute}: {@code …/{id}/stream} resumes a running turn,
 * {@code …/{id}/stop} stops it; anything else is a turn), the useChat body parsed and its page checked, the user's
 * answers to tool approvals carried out, the conversation prepared ({@link ConversationSession}), and the turn run
 * through {@link UiStreamTurn}; a stored turn is recorded in the stream log while it runs and stored whole at its end
 * ({@link TurnStreams#run}), in the UI message stream's framing. A refusal before the stream starts is a {@link DomainFailure}, answered
 * by the {@link Refusals} the function gives (the HTTP shape every function shares). The caller is verified, and the
 * transport's event decoded, by the function before this is called.
 */
public final class ChatEndpoint {

    private static final StructuredLog LOG = StructuredLog.of(ChatEndpoint.class);

    /**
     * A request as the transport gave it: the HTTP method, the raw path, the body (read only for a turn, so a
     * {@code stream} or {@code stop} request's body is never decoded) and the verified caller.
     */
    public record Request(String method, String rawPath, Body body, String ownerId) {
    }

    /** The request body as text, decoded from the transport's form when asked; a body that cannot be is refused. */
    @FunctionalInterface
    public interface Body {
        String text() throws BadRequest;

        static Body of(String text) {
            return () -> text;
        }
    }

    /** How a refusal before the stream starts is answered: status, headers and body of the function's HTTP errors. */
    @FunctionalInterface
    public interface Refusals {
        void answer(HttpResponseStream response, DomainFailure failure);
    }

    private final ChatRequestParser parser = new ChatRequestParser();
    private final UiStreamTurn turn;
    private final ConversationState conversations;
    private final ConversationSession<UiMessage> memory;
    private final TurnStreams streams;
    private final ToolApprovals approvals;
    private final Refusals refusals;

    /**
     * @param turn      the turn through the AI SDK's door
     * @param conversations the conversations a turn is stored in ({@link ConversationState#NONE}: the page's context
     *                  is all a turn has)
     * @param streams   the stream log of running turns ({@link TurnStreams#NONE}: not resumable)
     * @param approvals keeping a preview through the AI SDK's tool approval ({@link ToolApprovals#NONE}: never issued)
     * @param refusals  the answer to a refusal before the stream starts
     */
    public ChatEndpoint(UiStreamTurn turn, ConversationState conversations, TurnStreams streams, ToolApprovals approvals,
                        Refusals refusals) {
        this.turn = turn;
        this.conversations = conversations;
        this.memory = new ConversationSession<>(conversations, UiMessages.FORM);
        this.streams = streams;
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
        UiMessageStreamWriter ui = new UiMessageStreamWriter(new dev.tablewright.http.stream.InMemoryResponseStream());
        ui.observe(new UiMessageAssembler());
        ui.start("msg_priming", Json.object().put("conversationId", "priming"));
        ui.textStart("t");
        ui.textDelta("t", "primed");
        ui.textEnd("t");
        ui.finish(dev.tablewright.aisdk.stream.UiChunk.FinishReason.STOP, null);
        ui.done();
    }

    /** This endpoint with {@code approvals} instead of its own. */
    public ChatEndpoint withToolApprovals(ToolApprovals approvals) {
        return new ChatEndpoint(turn, conversations, streams, approvals, refusals);
    }

    /** Answers one request on {@code response}; {@code deadline} bounds a turn, which stops cleanly before it. */
    public void handle(Request request, Optional<Instant> deadline, HttpResponseStream response) {
        String owner = request.ownerId();
        Optional<ConversationRoute> route = ConversationRoute.of(request.rawPath());
        if (route.isPresent()) {
            route.get().answer(request.method(), owner, streams, UiMessageStreamWriter.FRAMING, deadline, response);
            return;
        }
        ChatRequest chat;
        ChatRequest whole;
        ConversationSession.Prepared<UiMessage> prepared;
        ToolApprovals.Answered answered;
        try {
            chat = parser.parse(request.body().text());
            if (!turn.pages().contains(chat.context().page())) {
                // an unknown page has no tools and no editable fields: refuse it rather than run a turn that can do nothing
                throw new BadChatRequest("context.page", "unknown page '" + clip(chat.context().page())
                        + "': the assistant serves " + String.join(", ", turn.pages()));
            }
            StructuredLog.put("conversationId", chat.id());
            // the user's answers to approvals are carried out first, so the turn starts from what they changed
            // (an accepted preview is the draft's saved version)
            answered = approvals.answer(owner, chat);
            ChatRequest settled = answered.request();
            prepared = memory.prepare(owner, settled.id(), settled.messages(), settled.newMessageOnly(), settled.context());
            whole = settled.withHistory(prepared.history());
            if ("user".equals(whole.messages().getLast().role()) && pendingApproval(whole)) {
                approvals.supersedeOpen(owner, chat.id()); // a new message instead of an answer
            }
        } catch (DomainFailure e) {
            LOG.info("chat request refused", "code", e.code().wireName(), "field", e.errors().isEmpty() ? null : e.errors().getFirst().field());
            refusals.answer(response, e);
            return;
        }
        run(owner, chat, whole, answered, prepared, deadline, response);
    }

    /**
     * Runs the turn. A stored turn outlives its client: it runs to its end, is stored whole, and can be resumed or
     * stopped from another request while it runs (its stream recorded in the stream log).
     */
    private void run(String owner, ChatRequest chat, ChatRequest whole, ToolApprovals.Answered answered,
                     ConversationSession.Prepared<UiMessage> prepared, Optional<Instant> deadline, HttpResponseStream response) {
        UiMessageAssembler assistant = prepared.continuing().map(m -> new UiMessageAssembler(m.json()))
                .orElseGet(UiMessageAssembler::new);
        UiMessageStreamWriter ui = new UiMessageStreamWriter(response);
        ui.observe(assistant);
        boolean kept = memory.keeps(prepared);
        streams.run(owner, whole.id(), kept, () -> memory.saveStart(owner, prepared), UiMessageStreamWriter.FRAMING,
                (stop, recorder) -> {
                    recorder.ifPresent(ui::observe);
                    turn.run(whole, owner, ui, deadline, prepared.draft(), prepared.memory(), prepared.paused(), kept, stop,
                            new UiStreamTurn.Approvals(approvals, answered, kept && chat.toolApprovals() && approvals.enabled()),
                            result -> memory.save(owner, prepared, answer(assistant.message()), result));
                });
    }

    /** The assistant message the turn wrote, as stored for display; none when it wrote no part. */
    private static Optional<StoredMessage> answer(ObjectNode assistant) {
        String id = assistant.path("id").asText("");
        return id.isEmpty() || assistant.path("parts").isEmpty() ? Optional.empty()
                : Optional.of(new StoredMessage(id, "assistant", Json.write(assistant)));
    }

    /** Whether a message of the conversation has a call still waiting for the user's approval. */
    private static boolean pendingApproval(ChatRequest request) {
        return request.messages().stream().anyMatch(m -> m.parts().stream().anyMatch(p ->
                p instanceof UiPart.ToolCall call && call.state().equals("approval-requested")));
    }

    private static String clip(String value) {
        return value.length() <= 40 ? value : value.substring(0, 40) + "…";
    }
}
