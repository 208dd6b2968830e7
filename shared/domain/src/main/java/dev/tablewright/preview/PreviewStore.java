package dev.tablewright.preview;

import java.time.Instant;
import java.util.Optional;

/**
 * Pending previews (DynamoDB table {@code PreviewsTable}; adapter {@code dev.tablewright.dynamodb.DynamoPreviewStore}).
 * Every read is by owner: another owner's preview is absent, exactly as if it did not exist.
 * Accepting a preview is not here: it writes a config version and the preview's status in one transaction,
 * see {@link PreviewAcceptance}.
 */
public interface PreviewStore {

    /**
     * Stores a new pending preview ({@code preview_table_config} calls this), once: saving the same preview again
     * (same id and config: a retried write, or a tool call run again) stores nothing more and answers it as first stored.
     *
     * @return the preview as stored
     * @throws dev.tablewright.configstore.InvalidConfigException too large to store (a DynamoDB item holds 400 KB)
     */
    PendingPreview save(PendingPreview preview);

    /** The owner's preview, whatever its status (check {@link PendingPreview#statusAt}); empty if absent or another owner's. */
    Optional<PendingPreview> find(String ownerId, String previewId);

    /**
     * Marks a pending, unexpired preview rejected, atomically.
     *
     * @throws PreviewNotFoundException  absent or another owner's
     * @throws PreviewNotPendingException already accepted, rejected, or expired at {@code now}
     */
    PendingPreview reject(String ownerId, String previewId, Instant now);

    /** Rejects every preview of the conversation still pending at {@code now} (the conversation is being deleted). */
    void rejectPendingOf(String ownerId, String conversationId, Instant now);
}
