package dev.tablewright.conversation;

import java.util.List;
import java.util.Optional;

/**
 * What a chat turn stores: the messages it added or changed (the user's message, the assistant's message with the
 * id of its streamed {@code start}), the draft after the turn (empty: unchanged) and a title for a new conversation.
 */
public record ConversationTurn(List<StoredMessage> messages, Optional<WorkingDraft> draft, String titleIfNew) {
    public ConversationTurn {
        messages = List.copyOf(messages);
    }
}
