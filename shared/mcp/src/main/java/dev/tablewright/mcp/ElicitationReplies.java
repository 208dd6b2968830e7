package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.mcpsession.McpSession;
import dev.tablewright.store.StoreUnavailableException;
import dev.tablewright.toolcontract.FieldType;
import dev.tablewright.userinput.InputRequestConflictException;
import dev.tablewright.userinput.InputRequestNotFoundException;
import dev.tablewright.userinput.InputRequestService;
import dev.tablewright.userinput.InvalidInputException;
import dev.tablewright.userinput.RequestStatus;

import java.util.Optional;

/**
 * What a 2025 session's client sends about the questions its calls asked, as its own POSTs (at any instance): the
 * answer to an {@code elicitation/create}, and {@code notifications/cancelled} for a call waiting on one. Both act on
 * the input requests only; the waiting call, wherever it runs, reads the outcome ({@link ToolCall}).
 */
final class ElicitationReplies {

    /** A client cancelling one of its requests (the SDK's schema names no constant for it). */
    static final String CANCELLED_NOTIFICATION = "notifications/cancelled";
    private static final StructuredLog LOG = StructuredLog.of(ElicitationReplies.class);

    private final InputRequestService inputRequests;

    ElicitationReplies(InputRequestService inputRequests) {
        this.inputRequests = inputRequests;
    }

    /**
     * The client's answer to one of our {@code elicitation/create} requests: completes the input request (accept, the
     * values saved for the session where the question allows it) or cancels it (decline, cancel, an error, invalid
     * values). An answer to nothing we asked is ignored.
     */
    void answer(McpSession session, String requestId, JsonNode message) {
        String conversation = McpCaller.of(session).conversationId();
        String owner = session.ownerId();
        try {
            JsonNode result = message.path("result");
            String action = result.path("action").asText("");
            if (!message.has("error") && action.equals("accept") && asksForASecret(owner, conversation, requestId)) {
                // URL mode: accepting means the user went to the page, whose form completes the request itself
                LOG.info("question sent to the page", "requestId", requestId);
                return;
            }
            if (!message.has("error") && action.equals("accept")) {
                JsonNode content = result.path("content").isObject() ? result.path("content") : Json.object();
                try {
                    inputRequests.submit(owner, conversation, requestId, content, true);
                    LOG.info("question answered", "requestId", requestId);
                    return;
                } catch (InvalidInputException e) {
                    LOG.info("answer refused as invalid: the question is cancelled", "requestId", requestId);
                }
            }
            inputRequests.cancel(owner, conversation, requestId);
            LOG.info("question declined", "requestId", requestId, "action", action);
        } catch (InputRequestNotFoundException e) {
            LOG.info("answer to an unknown question ignored", "requestId", JsonRpc.clip(requestId));
        } catch (InputRequestConflictException e) {
            LOG.info("late answer ignored: the question was settled", "requestId", requestId);
        }
    }

    /**
     * A client cancelled one of its tool calls: the questions that call is waiting on are cancelled, so the call (on
     * whichever instance runs it) stops waiting at its next look at the store and ends; nothing is saved.
     */
    void cancelQuestionsOf(McpSession session, JsonNode callId) {
        if (!(callId.isTextual() || callId.isIntegralNumber())) {
            return;
        }
        String conversation = McpCaller.of(session).conversationId();
        String prefix = ToolCall.questionPrefix(callId);
        try {
            for (var pending : inputRequests.list(session.ownerId(), conversation, Optional.of(RequestStatus.PENDING))) {
                if (pending.toolCallId().startsWith(prefix)) {
                    try {
                        inputRequests.cancel(session.ownerId(), conversation, pending.toolCallId());
                        LOG.info("question withdrawn: the client cancelled its call", "requestId", pending.toolCallId());
                    } catch (InputRequestConflictException e) {
                        // answered meanwhile: that answer stands
                    }
                }
            }
        } catch (InputRequestNotFoundException e) {
            // the session never asked anything
        } catch (StoreUnavailableException e) {
            LOG.warn("could not withdraw a cancelled call's questions", "cause", String.valueOf(e.getMessage()));
        }
    }

    private boolean asksForASecret(String owner, String conversation, String requestId) {
        return inputRequests.find(owner, conversation, requestId).fields().stream()
                .anyMatch(f -> f.type() == FieldType.SECRET);
    }
}
