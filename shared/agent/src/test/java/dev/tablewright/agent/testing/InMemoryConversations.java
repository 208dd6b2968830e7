package dev.tablewright.agent.testing;

import dev.tablewright.configstore.Page;
import dev.tablewright.conversation.ConversationStore;
import dev.tablewright.conversation.ConversationSummary;
import dev.tablewright.conversation.ConversationTurn;
import dev.tablewright.conversation.StoredConversation;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Conversations kept in this JVM as the DynamoDB store keeps a turn: messages merged by id, the draft and the agent's
 * memory replaced when the turn brings them. Only what a turn uses: no listing, renaming or deleting.
 */
public final class InMemoryConversations implements ConversationStore {

    private final Map<String, StoredConversation> conversations = new HashMap<>();

    @Override
    public Optional<StoredConversation> find(String ownerId, String conversationId) {
        return Optional.ofNullable(conversations.get(ownerId + "/" + conversationId));
    }

    @Override
    public Page<ConversationSummary> list(String ownerId, int limit, String cursor) {
        throw new UnsupportedOperationException("not used by a turn");
    }

    @Override
    public void saveTurn(String ownerId, String conversationId, ConversationTurn turn, Instant now) {
        Optional<StoredConversation> before = find(ownerId, conversationId);
        ConversationSummary summary = before.map(StoredConversation::summary)
                .map(s -> new ConversationSummary(s.id(), s.title() == null ? turn.titleIfNew() : s.title(), s.createdAt(), now, s.configId()))
                .orElse(new ConversationSummary(conversationId, turn.titleIfNew(), now, now, null));
        conversations.put(ownerId + "/" + conversationId, new StoredConversation(summary,
                turn.mergedInto(before.map(StoredConversation::messages).orElse(List.of())),
                turn.draft().or(() -> before.flatMap(StoredConversation::draft)),
                turn.memory().or(() -> before.flatMap(StoredConversation::memory))));
    }

    @Override
    public boolean rename(String ownerId, String conversationId, String title, Instant now) {
        throw new UnsupportedOperationException("not used by a turn");
    }

    @Override
    public boolean delete(String ownerId, String conversationId) {
        throw new UnsupportedOperationException("not used by a turn");
    }
}
