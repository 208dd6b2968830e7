package dev.tablewright.aisdk.approval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.aisdk.request.BadChatRequest;
import dev.tablewright.aisdk.request.ChatRequest;
import dev.tablewright.aisdk.request.ChatRequestParser;
import dev.tablewright.aisdk.request.UiMessage;
import dev.tablewright.aisdk.request.UiPart;
import dev.tablewright.aisdk.stream.UiChunk;
import dev.tablewright.conversation.ToolApprovalStore;
import dev.tablewright.door.DecisionLedger;
import dev.tablewright.door.Deferral;
import dev.tablewright.preview.PreviewDecisions;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Keeping or dropping a preview through the AI SDK's own tool approval: the wire of the door kit's
 * {@link DecisionLedger}. For a client that asked ({@code "toolApprovals": true}) the ledger's keep call is streamed
 * as {@code tool-input-available} then {@code tool-approval-request} (signed when a secret is set,
 * {@link ToolApprovalSignature}); the next request's answers (its tool parts in {@code approval-responded}) are
 * verified by their signature and settled by the ledger, their outcomes streamed right after {@code start}
 * ({@code tool-output-available}, {@code -denied}, {@code -error}) and the answered parts settled in the request.
 */
public final class ToolApprovals {

    /** A deployment without a conversation store: no approval is issued, and every answer is refused. */
    public static final ToolApprovals NONE = new ToolApprovals(DecisionLedger.NONE, Optional.empty());

    private final DecisionLedger ledger;
    private final Optional<ToolApprovalSignature> signature;
    private final ChatRequestParser parser = new ChatRequestParser();

    public ToolApprovals(DecisionLedger ledger, Optional<ToolApprovalSignature> signature) {
        this.ledger = ledger;
        this.signature = signature;
    }

    /**
     * The approvals over {@code store} (none without one: {@link #NONE}), carried out through {@code decisions},
     * signed with {@code secret} when there is one.
     */
    public static ToolApprovals of(Optional<ToolApprovalStore> store, Supplier<PreviewDecisions> decisions, Optional<String> secret) {
        return store.isEmpty() ? NONE
                : new ToolApprovals(DecisionLedger.of(store, decisions), secret.map(ToolApprovalSignature::new));
    }

    /** Whether approvals can be issued here (a store to keep them). */
    public boolean enabled() {
        return ledger.enabled();
    }

    /**
     * What the request's answers came to.
     *
     * @param request  the request, its answered parts settled (output-available, or left approval-responded denied)
     * @param outcomes the chunks that say so, streamed right after {@code start}
     * @param goOn     whether the model continues the message (an answer was carried out now)
     */
    public record Answered(ChatRequest request, List<UiChunk> outcomes, boolean goOn) {
    }

    /**
     * Settles the answers in the request's last message, before the turn; a request without one comes back as it
     * is, with no outcomes.
     *
     * @throws DecisionLedger.ApprovalBusyException another request is carrying out the same answer
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
            UiPart.Approval approval = call.approval();
            DecisionLedger.Settled settled = ledger.settle(ownerId, request.id(), new DecisionLedger.Answer(approval.id(),
                            last.id(), call.toolCallId(), call.toolName(), call.input(), !Boolean.FALSE.equals(approval.approved()),
                            approval.reason()),
                    (issued, input) -> signature.isEmpty() || signature.get().verify(approval.signature(), issued.approvalId(),
                            issued.toolCallId(), issued.toolName(), input));
            outcomes.add(chunk(settled));
            carriedOut |= settled.now();
            if (settled.now() && settled instanceof DecisionLedger.Settled.Kept kept && message != null) {
                settled(message, call.toolCallId(), kept.output());
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

    /** An answer's outcome on the wire. */
    private static UiChunk chunk(DecisionLedger.Settled settled) {
        return switch (settled) {
            case DecisionLedger.Settled.Kept k -> new UiChunk.ToolOutputAvailable(k.toolCallId(), k.output());
            case DecisionLedger.Settled.Dropped d -> new UiChunk.ToolOutputDenied(d.toolCallId());
            case DecisionLedger.Settled.NotKept n -> new UiChunk.ToolOutputError(n.toolCallId(), n.sentence());
            case DecisionLedger.Settled.Refused r -> new UiChunk.ToolOutputError(r.toolCallId(), r.sentence());
        };
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
     * Issues the call that keeps {@code previewId} ({@link DecisionLedger#issue}) and returns it as streamed, in a step
     * of its own; empty when none was issued.
     */
    public Optional<List<UiChunk>> issue(String ownerId, String conversationId, String messageId, String previewId) {
        return ledger.issue(ownerId, conversationId, messageId, previewId).map(this::chunks);
    }

    private List<UiChunk> chunks(Deferral.UserApproves call) {
        String signed = signature.map(s -> s.sign(call.approvalId(), call.toolCallId(), call.toolName(), call.input())).orElse(null);
        return List.of(new UiChunk.StartStep(), new UiChunk.ToolInputAvailable(call.toolCallId(), call.toolName(), call.input()),
                new UiChunk.ToolApprovalRequest(call.approvalId(), call.toolCallId(), signed), new UiChunk.FinishStep());
    }

    /** A new user message instead of an answer: the conversation's open approvals are closed ({@link DecisionLedger#supersedeOpen}). */
    public void supersedeOpen(String ownerId, String conversationId) {
        ledger.supersedeOpen(ownerId, conversationId);
    }
}
