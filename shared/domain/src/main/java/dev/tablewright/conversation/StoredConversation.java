package dev.tablewright.conversation;

import java.util.List;
import java.util.Optional;

/** A conversation with its messages, in order, and its working draft if it has one. */
public record StoredConversation(ConversationSummary summary, List<StoredMessage> messages, Optional<WorkingDraft> draft) {
    public StoredConversation {
        messages = List.copyOf(messages);
    }
}
