package dev.tablewright.conversation;

import java.util.ArrayList;
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

    /**
     * The conversation's messages once this turn is stored: in the order they were first saved, a message whose id is
     * already stored replaced in place (a turn that resumes a paused assistant message saves it again), a new one added.
     */
    public List<StoredMessage> mergedInto(List<StoredMessage> stored) {
        List<StoredMessage> merged = new ArrayList<>(stored);
        for (StoredMessage m : messages) {
            int at = -1;
            for (int i = 0; i < merged.size(); i++) {
                if (merged.get(i).id().equals(m.id())) {
                    at = i;
                    break;
                }
            }
            if (at >= 0) {
                merged.set(at, m);
            } else {
                merged.add(m);
            }
        }
        return merged;
    }
}
