package dev.tablewright.conversation;

import java.util.List;
import java.util.Optional;

/**
 * A conversation with its messages, in order, its working draft if it has one, and the agent's memory of it (an opaque
 * document the agent wrote; empty for a conversation stored before it kept one).
 */
public record StoredConversation(ConversationSummary summary, List<StoredMessage> messages, Optional<WorkingDraft> draft,
                                 Optional<String> memory) {
    public StoredConversation {
        messages = List.copyOf(messages);
        memory = memory == null ? Optional.empty() : memory;
    }

    public StoredConversation(ConversationSummary summary, List<StoredMessage> messages, Optional<WorkingDraft> draft) {
        this(summary, messages, draft, Optional.empty());
    }
}
