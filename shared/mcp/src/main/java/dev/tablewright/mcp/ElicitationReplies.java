package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.door.FormAnswers;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.mcpsession.McpSession;

/**
 * What a 2025 session's client sends about the questions its calls asked, as its own POSTs (at any instance): the
 * answer to an {@code elicitation/create}, and {@code notifications/cancelled} for a call waiting on one. Both are
 * settled by the kit's {@link FormAnswers}; the waiting call, wherever it runs, reads the outcome ({@link ToolCall}).
 */
final class ElicitationReplies {

    /** A client cancelling one of its requests (the SDK's schema names no constant for it). */
    static final String CANCELLED_NOTIFICATION = "notifications/cancelled";
    private static final StructuredLog LOG = StructuredLog.of(ElicitationReplies.class);

    private final FormAnswers answers;

    ElicitationReplies(FormAnswers answers) {
        this.answers = answers;
    }

    /**
     * The client's answer to one of our {@code elicitation/create} requests: the values (saved for the session where
     * the question allows it), or a decline (decline, cancel, an error, invalid values). An answer to nothing we asked,
     * or to a question settled meanwhile, is ignored.
     */
    void answer(McpSession session, String requestId, JsonNode message) {
        String conversation = McpCaller.of(session).conversationId();
        String owner = session.ownerId();
        JsonNode result = message.path("result");
        String action = result.path("action").asText("");
        boolean accepted = !message.has("error") && action.equals("accept");
        if (accepted && answers.asksForASecret(owner, conversation, requestId)) {
            // URL mode: accepting means the user went to the page, whose form completes the request itself
            LOG.info("question sent to the page", "requestId", requestId);
            return;
        }
        FormAnswers.Settled settled = null;
        if (accepted) {
            settled = answers.answer(owner, conversation, requestId,
                    result.path("content").isObject() ? result.path("content") : Json.object(), true);
            if (settled instanceof FormAnswers.Settled.Invalid) {
                LOG.info("answer refused as invalid: the question is cancelled", "requestId", requestId);
            }
        }
        if (settled == null || settled instanceof FormAnswers.Settled.Invalid) {
            settled = answers.decline(owner, conversation, requestId);
        }
        switch (settled) {
            case FormAnswers.Settled.Taken t -> LOG.info("question answered", "requestId", requestId);
            case FormAnswers.Settled.Declined d -> LOG.info("question declined", "requestId", requestId, "action", action);
            case FormAnswers.Settled.Unknown u -> LOG.info("answer to an unknown question ignored", "requestId", JsonRpc.clip(requestId));
            case FormAnswers.Settled.Repeat r -> LOG.info("repeated answer ignored: the question was settled by it", "requestId", requestId);
            case FormAnswers.Settled.Conflict c -> LOG.info("late answer ignored: the question was settled", "requestId", requestId);
            case FormAnswers.Settled.Invalid i -> LOG.info("answer refused as invalid", "requestId", requestId);
        }
    }

    /**
     * A client cancelled one of its tool calls: the questions that call is waiting on are withdrawn, so the call (on
     * whichever instance runs it) stops waiting at its next look at the store and ends; nothing is saved.
     */
    void cancelQuestionsOf(McpSession session, JsonNode callId) {
        if (!(callId.isTextual() || callId.isIntegralNumber())) {
            return;
        }
        answers.withdrawPending(session.ownerId(), McpCaller.of(session).conversationId(), ToolCall.questionPrefix(callId))
                .forEach(id -> LOG.info("question withdrawn: the client cancelled its call", "requestId", id));
    }
}
