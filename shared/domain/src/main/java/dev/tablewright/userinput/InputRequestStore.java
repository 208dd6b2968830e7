package dev.tablewright.userinput;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Input requests, per owner and conversation (port; the DynamoDB adapter is
 * {@code dev.tablewright.dynamodb.DynamoDbInputRequestStore}). Every method takes the owner: an owner can only
 * ever reach its own conversations, and another owner's conversation is indistinguishable from none.
 */
public interface InputRequestStore {

    /**
     * Stores a new pending request and opens its conversation (or extends the conversation's life to
     * {@code conversationExpiresAt}). A live request with the same tool call id → {@link InputRequestConflictException}.
     */
    void create(InputRequest request, Instant conversationExpiresAt);

    /** Whether the owner has this conversation (it exists and has not expired). */
    boolean conversationExists(String ownerId, String conversationId, Instant now);

    /** One request, strongly consistent. */
    Optional<InputRequest> find(String ownerId, String conversationId, String toolCallId);

    /** Every request of the conversation (any status), oldest first. */
    List<InputRequest> list(String ownerId, String conversationId);

    /**
     * Completes a pending, unexpired request with {@code values} and saves {@code toSave}, all in one atomic write.
     * If the request is no longer pending (another submit won, it was cancelled, it expired):
     * {@link InputRequestConflictException} with its current status, and nothing is written.
     */
    void complete(InputRequest request, java.util.Map<String, String> values, List<SavedValue> toSave, Instant now);

    /** Cancels a pending, unexpired request; otherwise {@link InputRequestConflictException}. */
    void cancel(InputRequest request, Instant now);

    /** Removes the conversation: its requests (any status) and the values saved for it. The user's values stay. */
    void deleteConversation(String ownerId, String conversationId);
}
