package dev.tablewright.aisdk;

import dev.tablewright.agent.StopSignal;
import dev.tablewright.aisdk.approval.ToolApprovals;
import dev.tablewright.aisdk.conversation.ConversationMemory;
import dev.tablewright.aisdk.request.BadChatRequest;
import dev.tablewright.aisdk.request.ChatRequest;
import dev.tablewright.aisdk.request.ChatRequestParser;
import dev.tablewright.aisdk.request.UiPart;
import dev.tablewright.aisdk.resume.TurnStreamRecorder;
import dev.tablewright.aisdk.resume.TurnStreams;
import dev.tablewright.store.StoreUnavailableException;
import dev.tablewright.aisdk.stream.UiMessageAssembler;
import dev.tablewright.aisdk.stream.UiMessageStreamWriter;
import dev.tablewright.failure.DomainFailure;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.logging.StructuredLog;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The AI SDK's chat endpoint, whatever carries it (a Lambda function URL, the local gateway): a signed-in caller's
 * request is routed ({@code …/{id}/stream} resumes a running turn, {@code …/{id}/stop} stops it, anything else is a
 * turn), the useChat body parsed and its page checked, the user's answers to tool approvals carried out, the
 * conversation prepared, and the turn run through {@link UiStreamTurn}; a stored turn is recorded in the stream log
 * while it runs and stored whole at its end. A refusal before the stream starts is a {@link DomainFailure}, answered
 * by the {@link Refusals} the function gives (the HTTP shape every function shares). The caller is verified, and the
 * transport's event decoded, by the function before this is called.
 */
public final class ChatEndpoint {

    private static final StructuredLog LOG = StructuredLog.of(ChatEndpoint.class);
    /**
     * {@code …/{conversationId}/stream} and {@code …/{conversationId}/stop}: the function URL's root (or the local
     * gateway's {@code /chat}) followed by the conversation; anything else is a turn.
     */
    private static final Pattern CONVERSATION_ROUTE = Pattern.compile("^.*/([^/]+)/(stream|stop)/?$");

    /**
     * A request as the transport gave it: the HTTP method, the raw path, the body (read only for a turn, so a
     * {@code stream} or {@code stop} request's body is never decoded) and the verified caller.
     */
    public record Request(String method, String rawPath, Body body, String ownerId) {
    }

    /** The request body as text, decoded from the transport's form when asked; a body that cannot be is refused. */
    @FunctionalInterface
    public interface Body {
        String text() throws BadChatRequest;

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
    private final ConversationMemory memory;
    private final TurnStreams streams;
    private final ToolApprovals approvals;
    private final Refusals refusals;

    /**
     * @param turn      the turn through the AI SDK's door
     * @param memory    the conversation a turn is stored in ({@link ConversationMemory#NONE}: the page's context is
     *                  all a turn has)
     * @param streams   the stream log of running turns ({@link TurnStreams#NONE}: not resumable)
     * @param approvals keeping a preview through the AI SDK's tool approval ({@link ToolApprovals#NONE}: never issued)
     * @param refusals  the answer to a refusal before the stream starts
     */
    public ChatEndpoint(UiStreamTurn turn, ConversationMemory memory, TurnStreams streams, ToolApprovals approvals,
                        Refusals refusals) {
        this.turn = turn;
        this.memory = memory;
        this.streams = streams;
        this.approvals = approvals;
        this.refusals = refusals;
    }

    /** This endpoint with {@code approvals} instead of its own. */
    public ChatEndpoint withToolApprovals(ToolApprovals approvals) {
        return new ChatEndpoint(turn, memory, streams, approvals, refusals);
    }

    /** Answers one request on {@code response}; {@code deadline} bounds a turn, which stops cleanly before it. */
    public void handle(Request request, Optional<Instant> deadline, HttpResponseStream response) {
        String owner = request.ownerId();
        Matcher route = CONVERSATION_ROUTE.matcher(request.rawPath() == null ? "" : request.rawPath());
        if (route.matches()) {
            conversationRoute(request.method(), owner, URLDecoder.decode(route.group(1), StandardCharsets.UTF_8),
                    route.group(2), deadline, response);
            return;
        }
        ChatRequest chat;
        ConversationMemory.Prepared prepared;
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
            prepared = memory.prepare(owner, answered.request());
            if ("user".equals(prepared.request().messages().getLast().role()) && pendingApproval(prepared.request())) {
                approvals.supersedeOpen(owner, chat.id()); // a new message instead of an answer
            }
        } catch (DomainFailure e) {
            LOG.info("chat request refused", "code", e.code().wireName(), "field", e.errors().isEmpty() ? null : e.errors().getFirst().field());
            refusals.answer(response, e);
            return;
        }
        run(owner, chat, answered, prepared, deadline, response);
    }

    /** {@code GET …/{id}/stream} and {@code POST …/{id}/stop}; any other method is a 405. */
    private void conversationRoute(String method, String owner, String conversationId, String action,
                                   Optional<Instant> deadline, HttpResponseStream response) {
        StructuredLog.put("conversationId", conversationId);
        if (action.equals("stream") && method.equals("GET")) {
            streams.resume(owner, conversationId, response, deadline);
        } else if (action.equals("stop") && method.equals("POST")) {
            boolean running;
            try {
                running = streams.stop(owner, conversationId);
            } catch (RuntimeException e) {
                LOG.warn("chat stop failed: the stream log is unavailable", "cause", String.valueOf(e.getMessage()));
                TurnStreams.unavailable(response);
                return;
            }
            LOG.info("chat stop", "running", running);
            response.start(204, Map.of());
            response.close();
        } else {
            response.sendJson(405, ("{\"error\":{\"code\":\"method_not_allowed\",\"message\":\""
                    + (action.equals("stream") ? "GET" : "POST") + " only\"}}").getBytes(StandardCharsets.UTF_8));
        }
    }

    /**
     * Runs the turn. A stored turn outlives its client: it runs to its end, is stored whole, and can be resumed or
     * stopped from another request while it runs (its stream recorded in the stream log).
     */
    private void run(String owner, ChatRequest chat, ToolApprovals.Answered answered, ConversationMemory.Prepared prepared,
                     Optional<Instant> deadline, HttpResponseStream response) {
        UiMessageAssembler assistant = prepared.continuing().map(UiMessageAssembler::new).orElseGet(UiMessageAssembler::new);
        UiMessageStreamWriter ui = new UiMessageStreamWriter(response);
        ui.observe(assistant);
        boolean kept = memory.keeps(prepared);
        StopSignal stop = new StopSignal();
        TurnStreamRecorder recorder = kept && streams.enabled()
                ? streams.record(owner, prepared.request().id(), stop, () -> memory.saveStart(owner, prepared)) : null;
        if (recorder != null) {
            ui.observe(recorder);
        }
        try {
            turn.run(prepared.request(), owner, ui, deadline, prepared.draft(), prepared.memory(), prepared.paused(), kept, stop,
                    new UiStreamTurn.Approvals(approvals, answered, kept && chat.toolApprovals() && approvals.enabled()),
                    result -> {
                        if (!memory.save(owner, prepared, assistant.message(), result)) {
                            throw new StoreUnavailableException("the turn could not be stored", 1, null);
                        }
                    });
        } finally {
            if (recorder != null) {
                recorder.close();
            }
        }
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
