package dev.tablewright.door;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.catalogue.PreviewDecisionDefinitions;
import dev.tablewright.configstore.ConfigNotFoundException;
import dev.tablewright.configstore.VersionConflictException;
import dev.tablewright.conversation.IssuedApproval;
import dev.tablewright.conversation.ToolApprovalStore;
import dev.tablewright.failure.DomainFailure;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.preview.PreviewDecisions;
import dev.tablewright.preview.PreviewNotFoundException;
import dev.tablewright.preview.PreviewNotPendingException;
import dev.tablewright.toolcontract.ToolDefinition;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.function.BiPredicate;
import java.util.function.Supplier;

/**
 * The decisions a turn leaves to the user, for every door: a pending preview is kept through one call of
 * {@value #KEEP_PREVIEW} that waits for the user's approval ({@link Deferral.UserApproves}), issued by the turn itself
 * from the catalogue's policy (its {@code needsApproval}), never asked of the model. The call is stored as it is issued
 * ({@link ToolApprovalStore}); an answer, by the approval's id, is honoured only for a call stored for this user and
 * conversation with the same message, tool call, tool and input (and what the door verifies besides, e.g. a
 * signature), and only once: claimed, then approved the preview is accepted through {@link PreviewDecisions} as
 * {@code POST /previews/{id}/accept} does, denied it is rejected; a repeated answer gets the first outcome again
 * ({@link #answered}, for a client that answers by the approval's id alone), and a new user message supersedes the open
 * ones. Each door only reads its answers and writes the outcomes on its wire.
 */
public final class DecisionLedger {

    /**
     * The call that keeps a preview: the catalogue's {@code accept_preview} (the same action as the HTTP route and the
     * MCP tool), whose policy says the user approves each call.
     */
    public static final ToolDefinition KEEP_PREVIEW_TOOL = PreviewDecisionDefinitions.ACCEPT_PREVIEW;
    public static final String KEEP_PREVIEW = KEEP_PREVIEW_TOOL.name();

    static {
        if (!KEEP_PREVIEW_TOOL.needsApproval()) {
            throw new IllegalStateException(KEEP_PREVIEW + " must need the user's approval in the tool catalogue");
        }
    }

    /** An answer that died mid-way (its function crashed) frees its approval after this long. */
    static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(60);
    private static final StructuredLog LOG = StructuredLog.of(DecisionLedger.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A deployment without a conversation store: nothing is issued, and every answer is refused. */
    public static final DecisionLedger NONE = new DecisionLedger(null, null, Clock.systemUTC());

    private final ToolApprovalStore store;
    private final PreviewDecisions decisions;
    private final Clock clock;

    public DecisionLedger(ToolApprovalStore store, PreviewDecisions decisions, Clock clock) {
        this.store = store;
        this.decisions = decisions;
        this.clock = clock;
    }

    /** The ledger over {@code store}, carried out through {@code decisions}; {@link #NONE} without a store. */
    public static DecisionLedger of(Optional<ToolApprovalStore> store, Supplier<PreviewDecisions> decisions) {
        return store.map(s -> new DecisionLedger(s, decisions.get(), Clock.systemUTC())).orElse(NONE);
    }

    /** Whether approvals can be issued here (a store to keep them). */
    public boolean enabled() {
        return store != null;
    }

    /** A duplicate answer that came while the first one is still being carried out (HTTP 409). */
    public static final class ApprovalBusyException extends DomainFailure {
        ApprovalBusyException(String approvalId) {
            super(Kind.CONFLICT, ErrorCode.APPROVAL_BUSY, "approval '" + approvalId
                    + "' is being answered by another request just now; its outcome is shown once that request ends");
        }
    }

    /** The user's answer to an approval, as a door read it: the approval's id, the call it answers, the decision. */
    public record Answer(String approvalId, String messageId, String toolCallId, String toolName, JsonNode input,
                         boolean approved, String reason) {
    }

    /** What an answer came to; {@code now}: carried out by this answer (not refused, not a repeat). */
    public sealed interface Settled {
        String toolCallId();

        boolean now();

        /** Approved: the preview is the config's next version ({@code output}: what was saved). */
        record Kept(String toolCallId, JsonNode output, boolean now) implements Settled {
        }

        /** Denied: the preview is rejected ({@code outcome}: the preview and the user's reason, when given). */
        record Dropped(String toolCallId, JsonNode outcome, boolean now) implements Settled {
        }

        /** Approved, but nothing could be saved ({@code sentence} says why). */
        record NotKept(String toolCallId, String sentence) implements Settled {
            public boolean now() {
                return false;
            }
        }

        /** Not honoured ({@code why}: not_issued, altered, bad_signature, superseded, answered); nothing changed. */
        record Refused(String toolCallId, String why, String sentence) implements Settled {
            public boolean now() {
                return false;
            }
        }
    }

    /**
     * Settles one answer, exactly once.
     *
     * @param verified what the door checks besides the stored call (the AI SDK: the approval's signature), given the
     *                 issued call and its stored input
     * @throws ApprovalBusyException another request is carrying out the same answer
     */
    public Settled settle(String ownerId, String conversationId, Answer answer, BiPredicate<IssuedApproval, JsonNode> verified) {
        Optional<IssuedApproval> found = store == null || conversationId == null ? Optional.empty()
                : store.find(ownerId, conversationId, answer.approvalId());
        if (found.isEmpty()) {
            // a made-up id, another user's or another conversation's: all alike
            return refused(answer, "not_issued", "This approval was not issued for this call in this conversation, so "
                    + "nothing was saved. Accept or reject the preview from its card.");
        }
        IssuedApproval issued = found.get();
        JsonNode storedInput = stored(issued.inputJson());
        if (!issued.messageId().equals(answer.messageId()) || !issued.toolCallId().equals(answer.toolCallId())
                || !issued.toolName().equals(answer.toolName()) || answer.input() == null
                || !storedInput.equals(answer.input())) { // the call's input as issued (JSON objects: in any key order)
            return refused(answer, "altered", "This approval does not match the call it was issued for (its message, tool "
                    + "call, tool or input was changed), so nothing was saved.");
        }
        if (!verified.test(issued, storedInput)) {
            return refused(answer, "bad_signature", "This approval's signature is missing or does not match the call, "
                    + "so nothing was saved. Answer the approval again from the conversation as the server sent it.");
        }
        if (issued.status() == IssuedApproval.Status.REQUESTED || issued.status() == IssuedApproval.Status.ANSWERING) {
            Instant now = clock.instant();
            if (store.claim(ownerId, conversationId, answer.approvalId(), now, now.minus(ANSWER_TIMEOUT))) {
                return carryOut(ownerId, issued, answer, now);
            }
            issued = store.find(ownerId, conversationId, answer.approvalId()).orElse(issued);
            if (issued.status() == IssuedApproval.Status.ANSWERING) {
                throw new ApprovalBusyException(answer.approvalId());
            }
        }
        return repeated(issued);
    }

    /**
     * What an approval answered before came to (its first outcome again; nothing is carried out): for a door whose
     * client may send the same answer again by the approval's id alone. Empty when it was not issued for this user
     * and conversation, or is still open (then it is answered through {@link #settle}).
     */
    public Optional<Settled> answered(String ownerId, String conversationId, String approvalId) {
        return (store == null || conversationId == null ? Optional.<IssuedApproval>empty()
                : store.find(ownerId, conversationId, approvalId))
                .filter(a -> a.status() != IssuedApproval.Status.REQUESTED && a.status() != IssuedApproval.Status.ANSWERING)
                .map(DecisionLedger::repeated);
    }

    /** The conversation's calls still waiting for the user's approval, as issued. */
    public List<Deferral.UserApproves> open(String ownerId, String conversationId) {
        if (store == null || conversationId == null) {
            return List.of();
        }
        return store.open(ownerId, conversationId).stream().map(a -> new Deferral.UserApproves(a.toolCallId(), a.toolName(),
                (ObjectNode) stored(a.inputJson()), a.approvalId(), a.subjectId())).toList();
    }

    /** The first answer: the preview accepted (approved) or rejected (denied), and the outcome kept for repeats. */
    private Settled carryOut(String ownerId, IssuedApproval issued, Answer answer, Instant now) {
        String previewId = issued.subjectId();
        if (!answer.approved()) {
            try {
                decisions.reject(ownerId, previewId, now);
            } catch (PreviewNotPendingException | PreviewNotFoundException e) {
                // nothing left to reject: the denial stands, and nothing changes
            }
            ObjectNode outcome = Json.object().put("denied", true).put("previewId", previewId);
            if (answer.reason() != null) {
                outcome.put("reason", answer.reason());
            }
            record(ownerId, issued, IssuedApproval.Status.DENIED, outcome);
            LOG.info("tool approval denied", "approvalId", issued.approvalId(), "previewId", previewId);
            return new Settled.Dropped(answer.toolCallId(), outcome, true);
        }
        String failure;
        try {
            PreviewDecisions.Accepted accepted = decisions.accept(ownerId, previewId, now);
            ObjectNode output = Json.object().put("accepted", true).put("previewId", previewId)
                    .put("configId", accepted.config().configId()).put("version", accepted.config().version())
                    .put("created", accepted.created()).put("name", accepted.config().name());
            record(ownerId, issued, IssuedApproval.Status.APPROVED, output);
            LOG.info("tool approval carried out", "approvalId", issued.approvalId(), "previewId", previewId,
                    "configId", accepted.config().configId(), "version", accepted.config().version());
            return new Settled.Kept(answer.toolCallId(), output, true);
        } catch (VersionConflictException e) {
            failure = "The config changed since this preview was made, so nothing was saved. Ask for a new preview.";
        } catch (PreviewNotPendingException e) {
            failure = "The preview was already " + e.status().wireName() + " elsewhere, so nothing was changed.";
        } catch (PreviewNotFoundException | ConfigNotFoundException e) {
            failure = "The preview or the config it changes no longer exists, so nothing was saved.";
        }
        record(ownerId, issued, IssuedApproval.Status.FAILED, Json.MAPPER.getNodeFactory().textNode(failure));
        LOG.info("tool approval not carried out", "approvalId", issued.approvalId(), "previewId", previewId);
        return new Settled.NotKept(answer.toolCallId(), failure);
    }

    /** An approval answered before: its first outcome again, and nothing carried out. */
    private static Settled repeated(IssuedApproval issued) {
        String toolCallId = issued.toolCallId();
        return switch (issued.status()) {
            case APPROVED -> new Settled.Kept(toolCallId, stored(issued.outcomeJson()), false);
            case DENIED -> new Settled.Dropped(toolCallId, stored(issued.outcomeJson()), false);
            case FAILED -> new Settled.NotKept(toolCallId, stored(issued.outcomeJson()).asText(
                    "This approval was already answered."));
            case SUPERSEDED -> refused(toolCallId, "superseded", "This approval is no longer open: a newer message replaced it, "
                    + "so nothing was saved. The preview is still pending: accept or reject it from its card.");
            default -> refused(toolCallId, "answered", "This approval was already answered.");
        };
    }

    /** JSON this server wrote. */
    private static JsonNode stored(String json) {
        try {
            return json == null ? Json.MAPPER.nullNode() : Json.parse(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("a stored approval is not JSON", e);
        }
    }

    private static Settled refused(Answer answer, String why, String sentence) {
        return refused(answer.toolCallId(), why, sentence);
    }

    private static Settled refused(String toolCallId, String why, String sentence) {
        LOG.info("tool approval refused", "why", why, "toolCallId", toolCallId);
        return new Settled.Refused(toolCallId, why, sentence);
    }

    private void record(String ownerId, IssuedApproval issued, IssuedApproval.Status status, JsonNode outcome) {
        store.settle(ownerId, issued.conversationId(), issued.approvalId(), status, Json.write(outcome));
    }

    /**
     * Issues the call that keeps {@code previewId}: stored first (so an answer that comes at once finds it), then
     * returned for the door's wire. Empty when it could not be stored: the preview stays reachable by its HTTP route.
     */
    public Optional<Deferral.UserApproves> issue(String ownerId, String conversationId, String messageId, String previewId) {
        if (store == null || conversationId == null || previewId == null) {
            return Optional.empty();
        }
        String toolCallId = "call_" + token();
        String approvalId = "apr_" + token();
        ObjectNode input = Json.object().put("previewId", previewId);
        try {
            store.issue(ownerId, new IssuedApproval(conversationId, approvalId, messageId, toolCallId, KEEP_PREVIEW,
                    Json.write(input), previewId, IssuedApproval.Status.REQUESTED, null, clock.instant(), null));
        } catch (RuntimeException e) {
            LOG.warn("a tool approval could not be stored; none was issued", "cause", String.valueOf(e.getMessage()));
            return Optional.empty();
        }
        return Optional.of(new Deferral.UserApproves(toolCallId, KEEP_PREVIEW, input, approvalId, previewId));
    }

    /**
     * A new user message instead of an answer: the conversation's open approvals are closed unanswered (their
     * previews stay pending). Never throws.
     */
    public void supersedeOpen(String ownerId, String conversationId) {
        if (store == null || conversationId == null) {
            return;
        }
        try {
            for (IssuedApproval open : store.open(ownerId, conversationId)) {
                store.supersede(ownerId, conversationId, open.approvalId());
            }
        } catch (RuntimeException e) {
            LOG.warn("open tool approvals could not be closed", "cause", String.valueOf(e.getMessage()));
        }
    }

    private static String token() {
        byte[] bytes = new byte[12];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
