package dev.tablewright.conversation;

import java.util.List;
import java.util.Optional;

/**
 * What a chat turn stores: the messages it added or changed (the user's message, the assistant's message with the
 * id of its streamed {@code start}), the draft after the turn (empty: unchanged), a title for a new conversation,
 * and the agent's memory of the conversation after the turn (an opaque document; empty: unchanged).
 */
public record ConversationTurn(List<StoredMessage> messages, Optional<WorkingDraft> draft, String titleIfNew,
                               Optional<String> memory) {
    public ConversationTurn {
        messages = List.copyOf(messages);
        memory = memory == null ? Optional.empty() : memory;
    }

    public ConversationTurn(List<StoredMessage> messages, Optional<WorkingDraft> draft, String titleIfNew) {
        this(messages, draft, titleIfNew, Optional.empty());
    }
}
