package dev.tablewright.agui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.DeferredCall;
import dev.tablewright.agent.PausedTurn;
import dev.tablewright.agent.Preview;
import dev.tablewright.codec.ConfigJson;
import dev.tablewright.door.DecisionLedger;
import dev.tablewright.door.Deferral;
import dev.tablewright.door.FormAnswers;
import dev.tablewright.failure.DomainFailure;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.json.Json;
import dev.tablewright.preview.PendingPreview;
import dev.tablewright.preview.PreviewStatus;
import dev.tablewright.userinput.InputRequest;
import dev.tablewright.userinput.RequestStatus;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What a thread's runs wait on the user for, and the answers: the interrupts open on a thread, the resume's answers
 * carried out (a kept preview's decision settled once by the kit's {@link DecisionLedger}, a form's values settled by the
 * kit's {@link FormAnswers}), a resume sent again answered with the first outcome, and the interrupts a run ends on
 * (the keep call issued by the ledger, the forms asked for). The door's approval wire; {@link ResumeRules} says which
 * resumes are refused.
 */
final class ThreadInterrupts {

    static final String ACCEPT_PREVIEW = DecisionLedger.KEEP_PREVIEW;

    private final AgUiEndpoint.Decisions decisions;
    private final FormAnswers formAnswers;
    private final Clock clock;

    ThreadInterrupts(AgUiEndpoint.Decisions decisions, Clock clock) {
        this.decisions = decisions;
        this.formAnswers = decisions.inputs() == null ? null : new FormAnswers(decisions.inputs());
        this.clock = clock;
    }

    /**
     * The interrupts a thread waits on: the calls of its last message, {@code last}, still open on a kept preview (the
     * interrupt's id the approval's) or a form ({@code paused}: the calls the agent paused on).
     */
    List<AgUiEvent.Interrupt> open(String ownerId, String threadId, ThreadMessage last, Optional<PausedTurn> paused) {
        if (last == null || !last.role().equals("assistant")) {
            return List.of();
        }
        Set<String> waitingForInput = paused.map(p -> p.calls().stream()
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
                open.add(Interrupts.keepPreview(keep.approvalId(), c.id(), preview.map(ThreadInterrupts::preview)
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

    /**
     * The preview the thread's open keep interrupt waits on, as the state shows it: the client's copy when it names the
     * same preview (it has the sample rows), else what the store holds; null when none waits.
     */
    ObjectNode pendingPreview(String ownerId, RunAgentInput in, List<AgUiEvent.Interrupt> open) {
        Optional<AgUiEvent.Interrupt> keep = open.stream()
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

    /**
     * What the run waits on the user for, written before the turn is stored: the call that keeps the preview it left
     * pending, issued by the kit's ledger (the interrupt's id is the approval's), and each form a tool asked for.
     */
    List<AgUiEvent.Interrupt> endedOn(String ownerId, String threadId, String messageId, AgUiEventMapper mapper) {
        List<AgUiEvent.Interrupt> interrupts = new ArrayList<>();
        mapper.preview().ifPresent(p -> decisions.ledger().issue(ownerId, threadId, messageId, p.previewId()).ifPresent(call -> {
            mapper.issuedCall(call.toolCallId(), call.toolName(), call.input());
            interrupts.add(Interrupts.keepPreview(call.approvalId(), call.toolCallId(), p));
        }));
        for (Deferral.UserAnswers asked : mapper.inputRequests().stream().map(Deferral.UserAnswers::of).toList()) {
            Instant expires = decisions.inputs() == null ? null
                    : decisions.inputs().find(ownerId, threadId, asked.toolCallId()).expiresAt();
            interrupts.add(Interrupts.inputRequired(asked.toolCallId(), asked.toolCallId(), asked.toolName(), asked.form(), expires));
        }
        return interrupts;
    }

    /**
     * A resume that answers again only decisions answered before (a retry, a second tab): each one's first outcome
     * again, from the ledger, and the run ends there without the model; nothing is carried out or stored. False when
     * the resume is not one (the rules answer it).
     */
    boolean answeredAgain(String ownerId, RunAgentInput in, List<AgUiEvent.Interrupt> open, List<ThreadMessage> messages,
                          AgUiEventMapper mapper) {
        Set<String> openIds = open.stream().map(AgUiEvent.Interrupt::id).collect(Collectors.toSet());
        Set<String> ids = in.resume().stream().map(RunAgentInput.Resume::interruptId)
                .collect(Collectors.toCollection(LinkedHashSet::new)); // answered in the resume's order
        if (ids.isEmpty() || ids.size() < in.resume().size() || ids.stream().anyMatch(openIds::contains)) {
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
        mapper.finish(List.of(), List.of(), messages.stream().flatMap(m -> m.wire().stream()).toList());
        return true;
    }

    /** A new user message instead of an answer: the open keep decisions of {@code last} are closed (their previews stay pending). */
    void supersededBy(String ownerId, String threadId, ThreadMessage last) {
        if (last != null && last.open().stream().anyMatch(c -> c.name().equals(ACCEPT_PREVIEW))) {
            decisions.ledger().supersedeOpen(ownerId, threadId);
        }
    }

    /**
     * An answer carried out: the call's result (a kept or discarded preview), none (a form's values: the paused call
     * itself runs now), or {@link #REFUSED} (the run ended in {@code RUN_ERROR} and nothing changed).
     */
    record Settlement(ObjectNode result) {
        static final Settlement REFUSED = new Settlement(null);
        static final Settlement CALL_RUNS = new Settlement(null);
    }

    /** Carries out the answer {@code r} to the interrupt on {@code call} of message {@code messageId}. */
    Settlement settle(String ownerId, String threadId, String messageId, ThreadMessage.Call call, RunAgentInput.Resume r,
                      AgUiEventMapper mapper) {
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
            FormAnswers.Settled answered = resolved // the values are this call's: not kept for later tools
                    ? formAnswers.answer(ownerId, threadId, call.id(), r.payload() == null ? Json.object() : r.payload(), false)
                    : formAnswers.decline(ownerId, threadId, call.id());
            Optional<DomainFailure> refused = FormAnswers.refusal(answered);
            if (refused.isPresent()) {
                return refused(mapper, refused.get());
            }
            return Settlement.CALL_RUNS;
        } catch (DomainFailure e) {
            return refused(mapper, e);
        }
    }

    private static Settlement refused(AgUiEventMapper mapper, DomainFailure e) {
        String field = e.errors().isEmpty() ? null : e.errors().getFirst().field();
        mapper.error(field == null ? e.getMessage() : field + ": " + e.errors().getFirst().message(), e.code());
        return Settlement.REFUSED;
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
}
