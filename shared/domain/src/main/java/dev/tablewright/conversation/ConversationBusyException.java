package dev.tablewright.conversation;

import dev.tablewright.failure.DomainFailure;
import dev.tablewright.failure.ErrorCode;

/**
 * Other turns of the conversation kept changing it while this one read or stored it: the conversation is busy, and
 * this caller should try again once they are done (HTTP 409 {@code conversation_busy}).
 */
public final class ConversationBusyException extends DomainFailure {

    public ConversationBusyException(String conversationId) {
        super(Kind.CONFLICT, ErrorCode.CONVERSATION_BUSY, "conversation '" + conversationId
                + "' kept changing while this turn used it: another turn of it is running", false);
    }
}
