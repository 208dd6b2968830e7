package dev.tablewright.dynamodb;

import dev.tablewright.configstore.ChangeKind;
import dev.tablewright.preview.PendingPreview;
import dev.tablewright.preview.PreviewNotFoundException;
import dev.tablewright.preview.PreviewNotPendingException;
import dev.tablewright.preview.PreviewStatus;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import static dev.tablewright.dynamodb.Attributes.n;
import static dev.tablewright.dynamodb.Attributes.s;

/**
 * The preview's move from pending to accepted in {@code PreviewsTable}, written in the same transaction as the
 * config version it accepts, and what it means when its condition (still pending) fails.
 */
final class PreviewTransition implements LinkedWrite {

    private final DynamoPreviewStore previews;
    private final PendingPreview preview;

    PreviewTransition(DynamoPreviewStore previews, PendingPreview preview) {
        this.previews = previews;
        this.preview = preview;
    }

    @Override
    public ChangeKind kind() {
        return ChangeKind.PREVIEW;
    }

    @Override
    public Map<String, AttributeValue> versionAttributes() {
        return Map.of("previewId", s(preview.previewId()));
    }

    @Override
    public TransactWriteItem item(String configId, long version, Instant now) {
        return TransactWriteItem.builder().update(PreviewItems.transition(previews.table(), preview.ownerId(),
                preview.previewId(), PreviewStatus.ACCEPTED, now,
                Map.of("acceptedConfigId", s(configId), "acceptedVersion", n(version)))).build();
    }

    /** Why the transition's condition failed, read fresh: accepted, rejected or expired meanwhile, or gone. */
    @Override
    public RuntimeException refusal(Instant now) {
        return stored().<RuntimeException>map(p -> new PreviewNotPendingException(p.previewId(), p.statusAt(now)))
                .orElseGet(() -> new PreviewNotFoundException(preview.previewId()));
    }

    /** Fails when the preview is no longer pending: "already accepted" says more than "the config moved on". */
    @Override
    public void checkBeforeRefusing(Instant now) {
        PendingPreview stored = stored().orElseThrow(() -> new PreviewNotFoundException(preview.previewId()));
        if (stored.statusAt(now) != PreviewStatus.PENDING) {
            throw new PreviewNotPendingException(preview.previewId(), stored.statusAt(now));
        }
    }

    /** The preview as stored now (a consistent read). */
    private Optional<PendingPreview> stored() {
        return previews.find(preview.ownerId(), preview.previewId());
    }
}
