package dev.tablewright.conversation;

import dev.tablewright.configstore.Page;

import java.time.Instant;
import java.util.Optional;

/**
 * Stored conversations (DynamoDB table {@code ConversationsTable}): each conversation's UI messages, its title, times
 * and the {@link WorkingDraft} it is building. Everything is per owner: another owner's conversation is absent,
 * exactly as if it did not exist; conversation ids are chosen by the client and unique per owner.
 *
 * <p>Failures: {@link dev.tablewright.configstore.InvalidCursorException} for a cursor this listing did not hand
 * out, {@link dev.tablewright.store.StoreUnavailableException} when the store could not be reached (nothing was
 * written).
 */
public interface ConversationStore {

    /** The conversation with all its messages in order, and its draft. */
    Optional<StoredConversation> find(String ownerId, String conversationId);

    /** The owner's conversations, most recently updated first, a page at a time. */
    Page<ConversationSummary> list(String ownerId, int limit, String cursor);

    /**
     * Stores what one chat turn changed, creating the conversation on its first turn. Messages are kept in the order
     * they were first saved; a message whose id is already stored replaces it in place (a turn that resumes a paused
     * assistant message saves it again). The draft, when present, replaces the stored one; the title is set only
     * if the conversation has none yet.
     */
    void saveTurn(String ownerId, String conversationId, ConversationTurn turn, Instant now);

    /** Renames a conversation; false if the owner has no such conversation. */
    boolean rename(String ownerId, String conversationId, String title, Instant now);

    /** Deletes a conversation and all its messages; false if the owner has no such conversation. */
    boolean delete(String ownerId, String conversationId);
}
