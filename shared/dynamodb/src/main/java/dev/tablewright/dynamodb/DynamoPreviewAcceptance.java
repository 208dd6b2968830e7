package dev.tablewright.dynamodb;

import dev.tablewright.configstore.ChangeKind;
import dev.tablewright.configstore.StoredConfig;
import dev.tablewright.preview.PendingPreview;
import dev.tablewright.preview.PreviewAcceptance;
import dev.tablewright.preview.PreviewNotPendingException;
import dev.tablewright.preview.PreviewStatus;

import java.time.Instant;

/**
 * Accepting a preview on DynamoDB: the config store's transaction for the new version (or the new config) carries
 * the preview's transition from pending to accepted, so both are written or neither.
 */
public final class DynamoPreviewAcceptance implements PreviewAcceptance {

    private final DynamoConfigStore configs;
    private final DynamoPreviewStore previews;

    public DynamoPreviewAcceptance(DynamoConfigStore configs, DynamoPreviewStore previews) {
        this.configs = configs;
        this.previews = previews;
    }

    @Override
    public StoredConfig accept(PendingPreview preview, Instant now) {
        if (preview.statusAt(now) != PreviewStatus.PENDING) {
            throw new PreviewNotPendingException(preview.previewId(), preview.statusAt(now));
        }
        PreviewTransition transition = new PreviewTransition(previews, preview);
        return preview.createsConfig()
                ? configs.createConfig(preview.ownerId(), preview.config(), now, transition)
                : configs.change(preview.ownerId(), preview.configId(), preview.baseVersion(), preview.config(), now,
                ChangeKind.PREVIEW, transition, null);
    }
}
