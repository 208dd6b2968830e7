package dev.tablewright.agui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.AgentEvent;
import dev.tablewright.agent.AgentLoop;
import dev.tablewright.agent.DeferredCall;
import dev.tablewright.agent.PageContext;
import dev.tablewright.agent.PausedTurn;
import dev.tablewright.agent.Preview;
import dev.tablewright.agent.StopSignal;
import dev.tablewright.agent.conversation.ConversationState;
import dev.tablewright.agent.toolcall.ClientTool;
import dev.tablewright.codec.ConfigJson;
import dev.tablewright.conversation.StoredConversation;
import dev.tablewright.conversation.StoredMessage;
import dev.tablewright.door.BadRequest;
import dev.tablewright.door.ConversationRoute;
import dev.tablewright.door.ConversationSession;
import dev.tablewright.door.DecisionLedger;
import dev.tablewright.door.Deferral;
import dev.tablewright.door.DoorTurn;
import dev.tablewright.door.Refusals;
import dev.tablewright.door.RequestBody;
import dev.tablewright.door.TurnStreams;
import dev.tablewright.failure.DomainFailure;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.preview.PendingPreview;
import dev.tablewright.preview.PreviewStatus;
import dev.tablewright.preview.PreviewStore;
import dev.tablewright.userinput.InputRequest;
import dev.tablewright.userinput.InputRequestService;
import dev.tablewright.userinput.RequestStatus;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The AG-UI door whatever carries it (a function URL, the local gateway): a signed-in caller's {@code RunAgentInput}
 * runs one AG-UI run on a thread (a conversation of the caller). The interrupts the thread's last run ended on are
 * answered first ({@code resume}, under {@link ResumeRules}): the decision on a kept preview is settled once by the
 * kit's {@link DecisionLedger} (the approval's id is the interrupt's; a resume sent again gets the first outcome), a
 * form's values are submitted as {@code POST …/input-requests/{id}/response} submits them; then the turn runs from the
 * thread's new input through the kit's {@link DoorTurn} and is stored, recorded while it runs (it outlives its
 * client). {@code …/{threadId}/stream} and {@code …/stop} are the kit's.
 */
public final class AgUiEndpoint {

    public static final String ACCEPT_PREVIEW = DecisionLedger.KEEP_PREVIEW;
    private static final StructuredLog LOG = StructuredLog.of(AgUiEndpoint.class);

    /** The stores a run's interrupts are settled in; {@link #NONE} where nothing is stored. */
    public record Decisions(PreviewStore previews, DecisionLedger ledger, InputRequestService inputs) {
        public static final Decisions NONE = new Decisions(null, DecisionLedger.NONE, null);
    }

    private final ConversationState state;
    private final DoorTurn<ThreadMessage> turns;
    private final Decisions decisions;
    private final Clock clock;

    public AgUiEndpoint(AgentLoop agent, ConversationState state, TurnStreams streams, Decisions decisions, Clock clock) {
        this.state = state;
        this.turns = new DoorTurn<>(agent, state, ThreadMessages.FORM, streams);
        this.decisions = decisions;
        this.clock = clock;
    }

    /** SnapStart: what a restored function would load on its first run (the request read, the events written). */
    public static void prime() {
        RunAgentInputParser.parse("{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[{\"id\":\"m\",\"role\":\"user\",\"content\":\"hi\"}]}");
        AgUiEventStream stream = new AgUiEventStream(new dev.tablewright.http.stream.InMemoryResponseStream());
        AgUiEventMapper mapper = new AgUiEventMapper(stream, "t", "r", new SharedState(null, null), false, new StopSignal());
        mapper.start(null);
        mapper.finish(List.of(), List.of(), List.of());
    }

    /** Answers one request of {@code ownerId} (verified by the function) on {@code response}. */
    public void handle(String method, String rawPath, RequestBody body, String ownerId, Optional<Instant> deadline,
                       HttpResponseStream response) {
        Optional<ConversationRoute> route = ConversationRoute.of(rawPath);
        if (route.isPresent()) {
            route.get().answer(method, ownerId, turns.streams(), AgUiEventStream.FRAMING, deadline, response);
            return;
        }
        if (!method.equals("POST")) {
            Refusals.methodNotAllowed(response, "POST");
            return;
        }
        RunAgentInput in;
        StoredThread thread;
        try {
            try {
                in = RunAgentInputParser.parse(body.text());
            } catch (RunInputRefused e) {
                throw new BadRequest(e.field(), e.getMessage());
            }
            StructuredLog.put("conversationId", in.threadId());
            thread = thread(ownerId, in);
        } catch (DomainFailure e) {
            LOG.info("AG-UI run refused", "code", e.code().wireName(), "field", e.errors().isEmpty() ? null : e.errors().getFirst().field());
            Refusals.answer(response, e);
            return;
        }
        run(ownerId, in, thread, deadline, response);
    }

    /** The thread as stored: its messages, what the agent paused on, and the interrupts still open. */
    private record StoredThread(Optional<StoredConversation> stored, List<ThreadMessage> messages, Optional<PausedTurn> paused,
                          List<AgUiEvent.Interrupt> open) {
        ThreadMessage last() {
            return messages.isEmpty() ? null : messages.getLast();
        }

        /** The call an open interrupt asks about. */
        String callOf(String interruptId) {
            return open.stream().filter(i -> i.id().equals(interruptId)).findFirst().map(AgUiEvent.Interrupt::toolCallId).orElse(interruptId);
        }
    }

    private StoredThread thread(String ownerId, RunAgentInput in) {
        Optional<StoredConversation> stored = state.find(ownerId, in.threadId());
        List<ThreadMessage> messages = new ArrayList<>();
        stored.ifPresent(s -> s.messages().forEach(m -> {
            ThreadMessage read = ThreadMessage.read(Json.objectLiteral(m.json()));
            if (read != null) {
                messages.add(read);
            }
        }));
        Optional<PausedTurn> paused = ConversationState.memory(stored).paused();
        StoredThread thread = new StoredThread(stored, messages, paused, List.of());
        return new StoredThread(stored, messages, paused, open(ownerId, in.threadId(), thread));
    }

    /** The last assistant message's calls that wait on the user: a kept preview, a form. */
    private List<AgUiEvent.Interrupt> open(String ownerId, String threadId, StoredThread thread) {
        ThreadMessage last = thread.last();
        if (last == null || !last.role().equals("assistant")) {
            return List.of();
        }
        Set<String> waitingForInput = thread.paused().map(p -> p.calls().stream()
                .filter(c -> c.waitingFor() == DeferredCall.Waiting.USER_INPUT).map(DeferredCall::toolCallId)
                .collect(Collectors.toSet())).orElse(Set.of());
        Map<String, Deferral.UserApproves> approvals = last.open().stream().anyMatch(c -> c.name().equals(ACCEPT_PREVIEW))
                ? decisions.ledger().open(ownerId, threadId).stream()
                .collect(Collectors.toMap(Deferral.UserApproves::toolCallId, Function.identity(), (a, b) -> a)) : Map.of();
        List<AgUiEvent.Interrupt> open = new ArrayList<>();
        for (ThreadMessage.Call c : last.open()) {
            Deferral.UserApproves keep = approvals.get(c.id());
            if (keep != null && decisions.previews() != null) { // the interrupt's id is the approval's
                Optional<PendingPreview> preview = decisions.previews().find(ownerId, keep.previewId());
                open.add(Interrupts.keepPreview(keep.approvalId(), c.id(), preview.map(AgUiEndpoint::preview)
                        .orElseGet(() -> new Preview(keep.previewId(), null, null, null, List.of(), null, Instant.EPOCH, null))));
            } else if (waitingForInput.contains(c.id()) && decisions.inputs() != null) {
                InputRequest request = decisions.inputs().find(ownerId, threadId, c.id());
                open.add(new AgUiEvent.Interrupt(c.id(), AgUiEvent.Interrupt.INPUT_REQUIRED, request.reason(), c.id(), null,
                        request.status() == RequestStatus.PENDING ? request.expiresAt() : Instant.EPOCH, null));
            }
        }
        return open;
    }

    private static Preview preview(PendingPreview p) {
        // a preview no longer pending (kept or discarded elsewhere) can no longer be answered: past its expiry
        return new Preview(p.previewId(), p.configId(), ConfigJson.write(p.config()), p.baseVersion(), List.of(),
                p.description(), p.status() == PreviewStatus.PENDING ? p.expiresAt() : Instant.EPOCH, null);
    }

    private void run(String ownerId, RunAgentInput in, StoredThread thread, Optional<Instant> deadline, HttpResponseStream response) {
        AgUiEventStream stream = new AgUiEventStream(response);
        boolean kept = state.keeps(in.threadId());
        // prepared inside the stream: what the resume refuses is a RUN_ERROR of a started run
        turns.streams().run(ownerId, in.threadId(), kept, () -> { }, AgUiEventStream.FRAMING, (stop, recorder) -> {
            recorder.ifPresent(stream::observeJson);
            SharedState shared = new SharedState(in.workingConfig(), pendingPreview(ownerId, in, thread));
            AgUiEventMapper mapper = new AgUiEventMapper(stream, in.threadId(), in.runId(), shared, kept, stop);
            try {
                turn(ownerId, in, thread, mapper, stream, stop, deadline);
            } catch (DomainFailure e) {
                mapper.error(e.getMessage(), e.code());
            } catch (RuntimeException e) {
                LOG.error("the AG-UI run failed", e);
                mapper.error("Something went wrong on our side while answering. Please try again.", ErrorCode.INTERNAL);
            }
            stream.close();
        });
    }

    /**
     * The preview the thread's open keep interrupt waits on, as the state shows it: the client's copy when it names the
     * same preview (it has the sample rows), else what the store holds; null when none waits.
     */
    private ObjectNode pendingPreview(String ownerId, RunAgentInput in, StoredThread thread) {
        Optional<AgUiEvent.Interrupt> keep = thread.open().stream()
                .filter(i -> i.reason().equals(AgUiEvent.Interrupt.TOOL_CALL) && i.metadata() != null)
                .filter(i -> i.expiresAt() == null || i.expiresAt().isAfter(clock.instant())).findFirst();
        if (keep.isEmpty()) {
            return null;
        }
        String previewId = keep.get().metadata().path("previewId").asText();
        JsonNode sent = in.state() == null ? null : in.state().get("preview");
        if (sent != null && sent.isObject() && previewId.equals(sent.path("previewId").asText())) {
            return (ObjectNode) sent;
        }
        return decisions.previews() == null ? null : decisions.previews().find(ownerId, previewId)
                .map(p -> SharedState.json(preview(p))).orElse(null);
    }

    private void turn(String ownerId, RunAgentInput in, StoredThread thread, AgUiEventMapper mapper, AgUiEventStream stream,
                      StopSignal stop, Optional<Instant> deadline) {
        Instant now = clock.instant();
        mapper.start(in.parentRunId());
        if (repeated(ownerId, in, thread, mapper)) {
            return;
        }
        ThreadMessage last = thread.last();
        Optional<ResumeRules.Broken> broken = ResumeRules.check(thread.open(), in.resume(), id -> answered(thread, id), now);
        if (broken.isPresent()) {
            mapper.error(broken.get().message(), broken.get().code());
            return;
        }
        ThreadMessage continuing = null;
        for (RunAgentInput.Resume r : in.resume()) {
            ThreadMessage.Call call = last.calls().stream().filter(c -> c.id().equals(thread.callOf(r.interruptId())))
                    .findFirst().orElseThrow();
            Settlement settled = settle(ownerId, in.threadId(), last.id(), call, r, now, mapper);
            if (settled == Settlement.REFUSED) {
                return; // the run ended in RUN_ERROR, nothing changed
            }
            continuing = continuing == null ? last : continuing;
            if (settled.result() != null) {
                String resultId = AgentEvent.newId("msg");
                mapper.result(call.id(), settled.result());
                continuing = continuing.answering(call.id(), Json.write(settled.result()), resultId);
            }
        }
        // the client's answers to frontend tool calls left open
        Set<String> held = thread.messages().stream().flatMap(m -> m.wireIds().stream()).collect(Collectors.toSet());
        List<RunAgentInput.Message> fresh = in.messages().stream().filter(m -> !held.contains(m.id())).toList();
        for (RunAgentInput.Message m : fresh) {
            if (m.role().equals("tool") && last != null && last.open().stream().anyMatch(c -> c.id().equals(m.toolCallId()))) {
                continuing = (continuing == null ? last : continuing).answering(m.toolCallId(), m.content(), m.id());
            }
        }
        Optional<RunAgentInput.Message> userMessage = fresh.stream().filter(m -> m.role().equals("user")).reduce((a, b) -> b);
        List<ThreadMessage> input;
        if (continuing != null) {
            input = List.of(continuing);
        } else if (userMessage.isPresent()) {
            input = List.of(ThreadMessage.user(userMessage.get().id(), userMessage.get().content()));
            if (last != null && last.open().stream().anyMatch(c -> c.name().equals(ACCEPT_PREVIEW))) {
                decisions.ledger().supersedeOpen(ownerId, in.threadId()); // a new message instead of an answer
            }
        } else {
            mapper.error("Nothing to run: send a user message (or the results of the frontend tools the last run called).",
                    ErrorCode.INVALID_REQUEST);
            return;
        }
        ConversationSession<ThreadMessage> session = turns.session();
        ConversationSession.Prepared<ThreadMessage> prepared;
        try {
            prepared = session.prepare(ownerId, in.threadId(), input, true,
                    new PageContext(PageContext.TABLES, null, null, in.workingConfig()));
        } catch (BadRequest | ConversationState.ConfigNotFound e) {
            mapper.error(e.getMessage(), ErrorCode.INVALID_REQUEST);
            return;
        }
        session.saveStart(ownerId, prepared);
        // the assistant message this run writes: the one it continues, or a new one
        String messageId = prepared.continuing().map(ThreadMessage::id).orElseGet(() -> AgentEvent.newId("msg"));
        ThreadMessageAssembler assistant = new ThreadMessageAssembler(messageId, prepared.continuing().orElse(null));
        stream.observe(assistant);
        List<ClientTool> clientTools = in.tools().stream().map(t -> new ClientTool(t.name(), t.description(),
                t.parameters().isObject() ? (ObjectNode) t.parameters() : Json.object().put("type", "object"))).toList();
        List<AgUiEvent.Interrupt> interrupts = new ArrayList<>();
        DoorTurn.Ended ended = turns.run(new DoorTurn.Turn<>(ownerId, prepared, messageId, clientTools),
                new DoorTurn.Wire(mapper, () -> { }, null, result -> {
                    if (!mapper.ended()) {
                        interrupts.addAll(interrupts(ownerId, in.threadId(), messageId, mapper));
                    }
                    return Optional.ofNullable(assistant.message()).map(AgUiEndpoint::stored);
                }), deadline);
        if (mapper.ended()) {
            return;
        }
        List<String> pending = ended.result().pending().stream().filter(c -> c.waitingFor() == DeferredCall.Waiting.CLIENT)
                .map(DeferredCall::toolCallId).toList();
        ThreadMessage answer = assistant.message();
        List<ObjectNode> snapshot = new ArrayList<>();
        prepared.history().stream().filter(m -> answer == null || !m.id().equals(answer.id()))
                .forEach(m -> snapshot.addAll(m.wire()));
        if (answer != null) {
            snapshot.addAll(answer.wire());
        }
        mapper.finish(interrupts, pending, snapshot);
    }

    /**
     * What the run waits on the user for, written before the turn is stored: the call that keeps the preview it left
     * pending, issued by the kit's ledger (the interrupt's id is the approval's), and each form a tool asked for.
     */
    private List<AgUiEvent.Interrupt> interrupts(String ownerId, String threadId, String messageId, AgUiEventMapper mapper) {
        List<AgUiEvent.Interrupt> interrupts = new ArrayList<>();
        mapper.preview().ifPresent(p -> decisions.ledger().issue(ownerId, threadId, messageId, p.previewId()).ifPresent(call -> {
            mapper.issuedCall(call.toolCallId(), call.toolName(), call.input());
            interrupts.add(Interrupts.keepPreview(call.approvalId(), call.toolCallId(), p));
        }));
        for (AgentEvent.InputRequested asked : mapper.inputRequests()) {
            Instant expires = decisions.inputs() == null ? null
                    : decisions.inputs().find(ownerId, threadId, asked.toolCallId()).expiresAt();
            interrupts.add(Interrupts.inputRequired(asked.toolCallId(), asked.toolCallId(), asked.toolName(), asked.requirement(), expires));
        }
        return interrupts;
    }

    /**
     * A resume that answers again only decisions answered before (a retry, a second tab): each one's first outcome
     * again, from the ledger, and the run ends there without the model; nothing is carried out or stored. False when
     * the resume is not one (the rules answer it).
     */
    private boolean repeated(String ownerId, RunAgentInput in, StoredThread thread, AgUiEventMapper mapper) {
        Set<String> open = thread.open().stream().map(AgUiEvent.Interrupt::id).collect(Collectors.toSet());
        Set<String> ids = in.resume().stream().map(RunAgentInput.Resume::interruptId).collect(Collectors.toSet());
        if (ids.isEmpty() || ids.size() < in.resume().size() || ids.stream().anyMatch(open::contains)) {
            return false;
        }
        List<DecisionLedger.Settled> first = new ArrayList<>();
        for (String id : ids) {
            Optional<DecisionLedger.Settled> settled = decisions.ledger().answered(ownerId, in.threadId(), id);
            if (settled.isEmpty()) {
                return false;
            }
            first.add(settled.get());
        }
        for (DecisionLedger.Settled settled : first) {
            Settlement shown = outcome(settled, mapper);
            if (shown == Settlement.REFUSED) {
                return true;
            }
            mapper.result(settled.toolCallId(), shown.result());
        }
        mapper.finish(List.of(), List.of(), thread.messages().stream().flatMap(m -> m.wire().stream()).toList());
        return true;
    }

    /** What an interrupt that is no longer open became (its call's result), for a resume that answers it again. */
    private static Optional<String> answered(StoredThread thread, String interruptId) {
        return thread.messages().stream().flatMap(m -> m.calls().stream())
                .filter(c -> c.id().equals(interruptId) && c.result() != null).findFirst().map(ThreadMessage.Call::result);
    }

    /**
     * An answer carried out: the call's result (a kept or discarded preview), none (a form's values: the paused call
     * itself runs now), or {@link #REFUSED} (the run ended in {@code RUN_ERROR} and nothing changed).
     */
    private record Settlement(ObjectNode result) {
        static final Settlement REFUSED = new Settlement(null);
        static final Settlement CALL_RUNS = new Settlement(null);
    }

    private Settlement settle(String ownerId, String threadId, String messageId, ThreadMessage.Call call, RunAgentInput.Resume r,
                              Instant now, AgUiEventMapper mapper) {
        boolean resolved = r.status() == RunAgentInput.Resume.Status.RESOLVED;
        try {
            if (call.name().equals(ACCEPT_PREVIEW)) {
                String previewId = Json.objectLiteral(call.arguments()).path("previewId").asText();
                if (!resolved) {
                    decisions.ledger().supersedeOpen(ownerId, threadId); // closed unanswered: the preview stays pending
                    return new Settlement(Json.object().put("previewId", previewId).put("status", "pending")
                            .put("message", "The user left the preview pending: it was neither kept nor discarded."));
                }
                JsonNode approved = r.payload() == null ? null : r.payload().get("approved");
                if (approved == null || !approved.isBoolean()) {
                    mapper.error("resume payload.approved must be true (keep the preview) or false (discard it)", ErrorCode.INVALID_REQUEST);
                    return Settlement.REFUSED;
                }
                String reason = r.payload().path("reason").asText("");
                DecisionLedger.Settled settled = decisions.ledger().settle(ownerId, threadId, new DecisionLedger.Answer(
                        r.interruptId(), messageId, call.id(), call.name(), Json.objectLiteral(call.arguments()),
                        approved.asBoolean(), reason.isBlank() ? null : reason), (issued, input) -> true); // the interrupt's id is all a client sends
                if (settled.now()) {
                    mapper.previewSettled();
                }
                return outcome(settled, mapper);
            }
            if (!resolved) {
                decisions.inputs().cancel(ownerId, threadId, call.id());
            } else {
                decisions.inputs().submit(ownerId, threadId, call.id(), r.payload() == null ? Json.object() : r.payload(), false);
            }
            return Settlement.CALL_RUNS;
        } catch (DomainFailure e) {
            String field = e.errors().isEmpty() ? null : e.errors().getFirst().field();
            mapper.error(field == null ? e.getMessage() : field + ": " + e.errors().getFirst().message(), e.code());
            return Settlement.REFUSED;
        }
    }

    /** A decision on a kept preview as the call's result, the same however often it is asked; a refusal is the run's error. */
    private static Settlement outcome(DecisionLedger.Settled settled, AgUiEventMapper mapper) {
        return switch (settled) {
            case DecisionLedger.Settled.Kept k -> new Settlement(Json.object().put("previewId", k.output().path("previewId").asText())
                    .put("status", "accepted").put("configId", k.output().path("configId").asText())
                    .put("version", k.output().path("version").asInt()));
            case DecisionLedger.Settled.Dropped d -> {
                String reason = d.outcome().path("reason").asText("");
                yield new Settlement(Json.object().put("previewId", d.outcome().path("previewId").asText()).put("status", "rejected")
                        .put("message", "The user declined the preview" + (reason.isBlank() ? "." : ": " + reason)));
            }
            case DecisionLedger.Settled.NotKept n -> refused(mapper, n.sentence());
            case DecisionLedger.Settled.Refused r -> refused(mapper, r.sentence());
        };
    }

    private static Settlement refused(AgUiEventMapper mapper, String sentence) {
        mapper.error(sentence, ErrorCode.CONFLICT);
        return Settlement.REFUSED;
    }

    private static StoredMessage stored(ThreadMessage m) {
        return new StoredMessage(m.id(), m.role(), Json.write(m.json()));
    }
}
