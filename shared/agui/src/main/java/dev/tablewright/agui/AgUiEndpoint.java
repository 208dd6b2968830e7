package dev.tablewright.agui;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.AgentEvent;
import dev.tablewright.agent.AgentLoop;
import dev.tablewright.agent.DeferredCall;
import dev.tablewright.agent.PageContext;
import dev.tablewright.agent.PausedTurn;
import dev.tablewright.agent.StopSignal;
import dev.tablewright.agent.conversation.ConversationMemory;
import dev.tablewright.agent.toolcall.ClientTool;
import dev.tablewright.conversation.StoredConversation;
import dev.tablewright.conversation.StoredMessage;
import dev.tablewright.door.BadRequest;
import dev.tablewright.door.ConversationRoute;
import dev.tablewright.door.ConversationSession;
import dev.tablewright.door.DecisionLedger;
import dev.tablewright.door.DoorTurn;
import dev.tablewright.door.Refusals;
import dev.tablewright.door.RequestBody;
import dev.tablewright.door.TurnStreams;
import dev.tablewright.failure.DomainFailure;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.http.stream.HttpResponseStream;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.preview.PreviewStore;
import dev.tablewright.userinput.InputRequestService;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The AG-UI door whatever carries it (a function URL, the local gateway): a signed-in caller's {@code RunAgentInput}
 * runs one AG-UI run on a thread (a conversation of the caller). The interrupts the thread's last run ended on are
 * answered first ({@code resume}, under {@link ResumeRules}, by {@link ThreadInterrupts}: a kept preview's decision
 * settled once by the kit's {@link DecisionLedger}, a resume sent again given the first outcome, a form's values
 * submitted); then the turn runs from the thread's new input through the kit's {@link DoorTurn} and is stored,
 * recorded while it runs (it outlives its client). {@code …/{threadId}/stream} and {@code …/stop} are the kit's.
 */
public final class AgUiEndpoint {

    private static final StructuredLog LOG = StructuredLog.of(AgUiEndpoint.class);

    /** The stores a run's interrupts are settled in; {@link #NONE} where nothing is stored. */
    public record Decisions(PreviewStore previews, DecisionLedger ledger, InputRequestService inputs) {
        public static final Decisions NONE = new Decisions(null, DecisionLedger.NONE, null);
    }

    private final ConversationMemory state;
    private final DoorTurn<ThreadMessage> turns;
    private final ThreadInterrupts interrupts;
    private final Clock clock;

    public AgUiEndpoint(AgentLoop agent, ConversationMemory state, TurnStreams streams, Decisions decisions, Clock clock) {
        this.state = state;
        this.turns = new DoorTurn<>(agent, state, ThreadMessages.FORM, streams);
        this.interrupts = new ThreadInterrupts(decisions, clock);
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
        Optional<PausedTurn> paused = ConversationMemory.memory(stored).paused();
        ThreadMessage last = messages.isEmpty() ? null : messages.getLast();
        return new StoredThread(stored, messages, paused, interrupts.open(ownerId, in.threadId(), last, paused));
    }

    private void run(String ownerId, RunAgentInput in, StoredThread thread, Optional<Instant> deadline, HttpResponseStream response) {
        AgUiEventStream stream = new AgUiEventStream(response);
        boolean kept = state.keeps(in.threadId());
        // prepared inside the stream: what the resume refuses is a RUN_ERROR of a started run
        turns.streams().run(ownerId, in.threadId(), kept, AgUiEventStream.FRAMING, (stop, recorder) -> {
            recorder.ifPresent(stream::observeJson);
            SharedState shared = new SharedState(in.workingConfig(), interrupts.pendingPreview(ownerId, in, thread.open()));
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

    private void turn(String ownerId, RunAgentInput in, StoredThread thread, AgUiEventMapper mapper, AgUiEventStream stream,
                      StopSignal stop, Optional<Instant> deadline) {
        Instant now = clock.instant();
        mapper.start(in.parentRunId());
        if (interrupts.answeredAgain(ownerId, in, thread.open(), thread.messages(), mapper)) {
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
            ThreadInterrupts.Settlement settled = interrupts.settle(ownerId, in.threadId(), last.id(), call, r, mapper);
            if (settled == ThreadInterrupts.Settlement.REFUSED) {
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
            interrupts.supersededBy(ownerId, in.threadId(), last);
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
        } catch (BadRequest | ConversationMemory.ConfigNotFound e) {
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
        List<AgUiEvent.Interrupt> waitingOn = new ArrayList<>();
        DoorTurn.Ended ended = turns.run(new DoorTurn.Turn<>(ownerId, prepared, messageId, clientTools),
                new DoorTurn.Wire(mapper, () -> { }, null, result -> {
                    if (!mapper.ended()) {
                        waitingOn.addAll(interrupts.endedOn(ownerId, in.threadId(), messageId, mapper));
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
        mapper.finish(waitingOn, pending, snapshot);
    }

    /** What an interrupt that is no longer open became (its call's result), for a resume that answers it again. */
    private static Optional<String> answered(StoredThread thread, String interruptId) {
        return thread.messages().stream().flatMap(m -> m.calls().stream())
                .filter(c -> c.id().equals(interruptId) && c.result() != null).findFirst().map(ThreadMessage.Call::result);
    }

    private static StoredMessage stored(ThreadMessage m) {
        return new StoredMessage(m.id(), m.role(), Json.write(m.json()));
    }
}
