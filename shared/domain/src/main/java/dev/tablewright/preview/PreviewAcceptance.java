package dev.tablewright.preview;

import dev.tablewright.configstore.StoredConfig;

import java.time.Instant;

/**
 * Accepting a preview: one unit of work over the configs and the previews. The preview's config becomes the next
 * version of its config (or a new config on the create path) and the preview becomes accepted, both or neither.
 */
public interface PreviewAcceptance {

    /**
     * @throws dev.tablewright.configstore.VersionConflictException the config moved past the preview's base version
     * @throws dev.tablewright.configstore.ConfigNotFoundException  the preview's config no longer exists
     * @throws PreviewNotPendingException the preview was meanwhile accepted, rejected, or expired at {@code now}
     * @throws PreviewNotFoundException   the preview no longer exists
     */
    StoredConfig accept(PendingPreview preview, Instant now);
}
