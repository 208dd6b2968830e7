package dev.tablewright.aisdk.approval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.aisdk.request.BadChatRequest;
import dev.tablewright.catalog.PreviewDecisionDefinitions;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.aisdk.request.ChatRequest;
import dev.tablewright.aisdk.request.ChatRequestParser;
import dev.tablewright.aisdk.request.UiMessage;
import dev.tablewright.aisdk.request.UiPart;
import dev.tablewright.aisdk.stream.UiChunk;
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

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * Keeping or dropping a preview through the AI SDK's own tool approval. A turn that leaves a preview pending, for a
 * client that asked for approvals ({@code "toolApprovals": true}), ends with one call of {@value #KEEP_PREVIEW}
 * (input {@code {"previewId"}}) that waits for the user: {@code tool-input-available}, then
 * {@code tool-approval-request} (signed when a secret is set, {@link ToolApprovalSignature}). The call is stored as it
 * is issued ({@link ToolApprovalStore}); the next request's answer ({@code approval-responded}) is honoured only for
 * a call stored for this user and conversation with the same tool call, tool and input (and a valid signature), and
 * only once: approved, the preview is accepted through {@link PreviewDecisions} as {@code POST /previews/{id}/accept}
 * does; denied, it is rejected. Anything else changes nothing and is answered in the stream.
 */
public final class ToolApprovals {

    /**
     * The call that keeps a preview: the catalogue's {@code accept_preview} (the same action as the HTTP route and the
     * MCP tool), whose policy says the user approves each call. It is never offered to the chat's model: the door
     * issues it, so keeping a preview never depends on the model asking.
     */
    static final ToolDefinition KEEP_PREVIEW_TOOL = PreviewDecisionDefinitions.ACCEPT_PREVIEW;
    public static final String KEEP_PREVIEW = KEEP_PREVIEW_TOOL.name();

    static {
        if (!KEEP_PREVIEW_TOOL.needsApproval()) {
            throw new IllegalStateException(KEEP_PREVIEW + " must need the user's approval in the tool catalogue");
        }
    }
    /** An answer that died mid-way (its function crashed) frees its approval after this long. */
    static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(60);
    private static final StructuredLog LOG = StructuredLog.of(ToolApprovals.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A deployment without a conversation store: no approval is issued, and every answer is refused. */
    public static final ToolApprovals NONE = new ToolApprovals(null, null, Optional.empty(), Clock.systemUTC());

    private final ToolApprovalStore store;
    private final PreviewDecisions decisions;
    private final Optional<ToolApprovalSignature> signature;
    private final Clock clock;
    private final ChatRequestParser parser = new ChatRequestParser();

    public ToolApprovals(ToolApprovalStore store, PreviewDecisions decisions, Optional<ToolApprovalSignature> signature, Clock clock) {
        this.store = store;
        this.decisions = decisions;
        this.signature = signature;
        this.clock = clock;
    }

    /**
     * The approvals over {@code store} (none without one: {@link #NONE}), carried out through {@code decisions},
     * signed with {@code secret} when there is one.
     */
    public static ToolApprovals of(Optional<ToolApprovalStore> store, java.util.function.Supplier<PreviewDecisions> decisions,
                                   Optional<String> secret) {
        return store.map(s -> new ToolApprovals(s, decisions.get(), secret.map(ToolApprovalSignature::new), Clock.systemUTC()))
                .orElse(NONE);
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

    /**
     * What the request's answers came to.
     *
     * @param request  the request, its answered parts settled (output-available, or left approval-responded denied)
     * @param outcomes the chunks that say so, streamed right after {@code start}
     * @param goOn     whether the model continues the message (an answer was carried out now)
     */
    public record Answered(ChatRequest request, List<UiChunk> outcomes, boolean goOn) {
        public boolean any() {
            return !outcomes.isEmpty();
        }
    }

    /**
     * Settles the answers in the request's last message (its tool parts in {@code approval-responded}), before the
     * turn; a request without one comes back as it is, with no outcomes.
     *
     * @throws ApprovalBusyException another request is carrying out the same answer
     */
    public Answered answer(String ownerId, ChatRequest request) {
        UiMessage last = request.messages().getLast();
        List<UiPart.ToolCall> answers = new ArrayList<>();
        if ("assistant".equals(last.role())) {
            last.parts().forEach(p -> {
                if (p instanceof UiPart.ToolCall call && call.state().equals("approval-responded")) {
                    answers.add(call);
                }
            });
        }
        if (answers.isEmpty()) {
            return new Answered(request, List.of(), true);
        }
        List<UiChunk> outcomes = new ArrayList<>();
        ObjectNode message = last.json() == null ? null : last.json().deepCopy();
        boolean carriedOut = false;
        for (UiPart.ToolCall call : answers) {
            Outcome outcome = answer(ownerId, request.id(), last.id(), call);
            outcomes.add(outcome.chunk());
            carriedOut |= outcome.now();
            if (outcome.now() && outcome.chunk() instanceof UiChunk.ToolOutputAvailable available && message != null) {
                settled(message, call.toolCallId(), available.output());
            }
        }
        ChatRequest settled = request;
        if (carriedOut && message != null) {
            try {
                List<UiMessage> messages = new ArrayList<>(request.messages());
                messages.set(messages.size() - 1, parser.message(message, "message"));
                settled = request.withMessages(messages);
            } catch (BadChatRequest e) {
                throw new IllegalStateException("a settled approval part did not parse: " + e.getMessage(), e);
            }
        }
        return new Answered(settled, outcomes, carriedOut);
    }

    /** One answer's chunk; {@code now}: carried out by this request (not refused, not a repeat). */
    private record Outcome(UiChunk chunk, boolean now) {
    }

    private Outcome answer(String ownerId, String conversationId, String messageId, UiPart.ToolCall call) {
        String approvalId = call.approval().id();
        Optional<IssuedApproval> found = store == null || conversationId == null ? Optional.empty()
                : store.find(ownerId, conversationId, approvalId);
        if (found.isEmpty()) {
            // a made-up id, another user's or another conversation's: all alike
            return refused(call, "not_issued", "This approval was not issued for this call in this conversation, so "
                    + "nothing was saved. Accept or reject the preview from its card.");
        }
        IssuedApproval issued = found.get();
        JsonNode storedInput = stored(issued.inputJson());
        if (!issued.messageId().equals(messageId) || !issued.toolCallId().equals(call.toolCallId())
                || !issued.toolName().equals(call.toolName())
                || call.input() == null || !ToolApprovalSignature.canonical(storedInput).equals(ToolApprovalSignature.canonical(call.input()))) {
            return refused(call, "altered", "This approval does not match the call it was issued for (its message, tool "
                    + "call, tool or input was changed), so nothing was saved.");
        }
        if (signature.isPresent() && !signature.get().verify(call.approval().signature(), issued.approvalId(),
                issued.toolCallId(), issued.toolName(), storedInput)) {
            return refused(call, "bad_signature", "This approval's signature is missing or does not match the call, "
                    + "so nothing was saved. Answer the approval again from the conversation as the server sent it.");
        }
        if (issued.status() == IssuedApproval.Status.REQUESTED || issued.status() == IssuedApproval.Status.ANSWERING) {
            Instant now = clock.instant();
            if (store.claim(ownerId, conversationId, approvalId, now, now.minus(ANSWER_TIMEOUT))) {
                return carryOut(ownerId, issued, call, now);
            }
            issued = store.find(ownerId, conversationId, approvalId).orElse(issued);
            if (issued.status() == IssuedApproval.Status.ANSWERING) {
                throw new ApprovalBusyException(approvalId);
            }
        }
        return repeated(issued, call);
    }

    /** The first answer: the preview accepted (approved) or rejected (denied), and the outcome kept for repeats. */
    private Outcome carryOut(String ownerId, IssuedApproval issued, UiPart.ToolCall call, Instant now) {
        String previewId = issued.subjectId();
        if (Boolean.FALSE.equals(call.approval().approved())) {
            try {
                decisions.reject(ownerId, previewId, now);
            } catch (PreviewNotPendingException | PreviewNotFoundException e) {
                // nothing left to reject: the denial stands, and nothing changes
            }
            ObjectNode outcome = Json.object().put("denied", true).put("previewId", previewId);
            if (call.approval().reason() != null) {
                outcome.put("reason", call.approval().reason());
            }
            settle(ownerId, issued, IssuedApproval.Status.DENIED, outcome);
            LOG.info("tool approval denied", "approvalId", issued.approvalId(), "previewId", previewId);
            return new Outcome(new UiChunk.ToolOutputDenied(call.toolCallId()), true);
        }
        String failure;
        try {
            PreviewDecisions.Accepted accepted = decisions.accept(ownerId, previewId, now);
            ObjectNode output = Json.object().put("accepted", true).put("previewId", previewId)
                    .put("configId", accepted.config().configId()).put("version", accepted.config().version())
                    .put("created", accepted.created()).put("name", accepted.config().name());
            settle(ownerId, issued, IssuedApproval.Status.APPROVED, output);
            LOG.info("tool approval carried out", "approvalId", issued.approvalId(), "previewId", previewId,
                    "configId", accepted.config().configId(), "version", accepted.config().version());
            return new Outcome(new UiChunk.ToolOutputAvailable(call.toolCallId(), output), true);
        } catch (VersionConflictException e) {
            failure = "The config changed since this preview was made, so nothing was saved. Ask for a new preview.";
        } catch (PreviewNotPendingException e) {
            failure = "The preview was already " + e.status().wireName() + " elsewhere, so nothing was changed.";
        } catch (PreviewNotFoundException | ConfigNotFoundException e) {
            failure = "The preview or the config it changes no longer exists, so nothing was saved.";
        }
        settle(ownerId, issued, IssuedApproval.Status.FAILED, Json.MAPPER.getNodeFactory().textNode(failure));
        LOG.info("tool approval not carried out", "approvalId", issued.approvalId(), "previewId", previewId);
        return new Outcome(new UiChunk.ToolOutputError(call.toolCallId(), failure), false);
    }

    /** An approval answered before: its first outcome again, and nothing carried out. */
    private static Outcome repeated(IssuedApproval issued, UiPart.ToolCall call) {
        return switch (issued.status()) {
            case APPROVED -> new Outcome(new UiChunk.ToolOutputAvailable(call.toolCallId(), stored(issued.outcomeJson())), false);
            case DENIED -> new Outcome(new UiChunk.ToolOutputDenied(call.toolCallId()), false);
            case FAILED -> new Outcome(new UiChunk.ToolOutputError(call.toolCallId(), stored(issued.outcomeJson()).asText(
                    "This approval was already answered.")), false);
            case SUPERSEDED -> refused(call, "superseded", "This approval is no longer open: a newer message replaced it, "
                    + "so nothing was saved. The preview is still pending: accept or reject it from its card.");
            default -> refused(call, "answered", "This approval was already answered.");
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

    private static Outcome refused(UiPart.ToolCall call, String why, String sentence) {
        LOG.info("tool approval refused", "why", why, "toolCallId", call.toolCallId());
        return new Outcome(new UiChunk.ToolOutputError(call.toolCallId(), sentence), false);
    }

    private void settle(String ownerId, IssuedApproval issued, IssuedApproval.Status status, JsonNode outcome) {
        store.settle(ownerId, issued.conversationId(), issued.approvalId(), status, Json.write(outcome));
    }

    /** The answered part of {@code message} as the AI SDK leaves an executed approval: output-available, approval kept. */
    private static void settled(ObjectNode message, String toolCallId, JsonNode output) {
        for (JsonNode p : (ArrayNode) message.withArray("parts")) {
            if (toolCallId.equals(p.path("toolCallId").asText(null))) {
                ((ObjectNode) p).put("state", "output-available").set("output", output);
            }
        }
    }

    /**
     * Issues the call that keeps {@code previewId}: stored first (so an answer that comes at once finds it), then
     * returned for the stream. Empty when it could not be stored: the preview stays reachable by its HTTP route.
     */
    public Optional<Issued> issue(String ownerId, String conversationId, String messageId, String previewId) {
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
        return Optional.of(new Issued(approvalId, toolCallId, input,
                signature.map(s -> s.sign(approvalId, toolCallId, KEEP_PREVIEW, input)).orElse(null)));
    }

    /** An issued call as streamed: {@code signature} null without a secret. */
    public record Issued(String approvalId, String toolCallId, ObjectNode input, String signature) {
        public List<UiChunk> chunks() {
            return List.of(new UiChunk.StartStep(), new UiChunk.ToolInputAvailable(toolCallId, KEEP_PREVIEW, input),
                    new UiChunk.ToolApprovalRequest(approvalId, toolCallId, signature), new UiChunk.FinishStep());
        }
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
