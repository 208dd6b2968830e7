package dev.tablewright.preview;

import dev.tablewright.configstore.StoredConfig;

import java.time.Instant;

/**
 * What the user's accept and reject buttons do, for the HTTP handlers and anything
 * else that needs it. Accept applies the preview's config as the next version of its config (or creates the
 * config), only while the config is at the preview's base version, and only once.
 */
public final class PreviewDecisions {

    /** An accepted preview and the config version it wrote; {@code created} on the create path. */
    public record Accepted(PendingPreview preview, StoredConfig config, boolean created) {
    }

    private final PreviewStore previews;
    private final PreviewAcceptance acceptance;

    public PreviewDecisions(PreviewStore previews, PreviewAcceptance acceptance) {
        this.previews = previews;
        this.acceptance = acceptance;
    }

    /**
     * @throws PreviewNotFoundException  absent, or another owner's
     * @throws PreviewNotPendingException accepted, rejected or expired
     * @throws dev.tablewright.configstore.VersionConflictException the config moved past the preview's base version
     * @throws dev.tablewright.configstore.ConfigNotFoundException  the preview's config no longer exists
     */
    public Accepted accept(String ownerId, String previewId, Instant now) {
        PendingPreview preview = pending(ownerId, previewId, now);
        StoredConfig written = acceptance.accept(preview, now);
        return new Accepted(preview.withStatus(PreviewStatus.ACCEPTED), written, preview.createsConfig());
    }

    /** Discards a pending preview; the config is untouched. Same refusals as {@link #accept}, minus the version ones. */
    public PendingPreview reject(String ownerId, String previewId, Instant now) {
        pending(ownerId, previewId, now);
        return previews.reject(ownerId, previewId, now);
    }

    private PendingPreview pending(String ownerId, String previewId, Instant now) {
        PendingPreview preview = previews.find(ownerId, previewId).orElseThrow(() -> new PreviewNotFoundException(previewId));
        PreviewStatus status = preview.statusAt(now);
        if (status != PreviewStatus.PENDING) {
            throw new PreviewNotPendingException(previewId, status);
        }
        return preview;
    }
}
