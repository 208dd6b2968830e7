package dev.tablewright.dynamodb;

import dev.tablewright.configstore.ChangeKind;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

import java.time.Instant;
import java.util.Map;

/**
 * A write to another table that a config change carries in its own transaction, so both are written or neither (a
 * preview's move to accepted: {@link PreviewTransition}). The config store knows of it only this: the item, what its
 * failed condition means, and what the new version records of it.
 */
interface LinkedWrite {

    /** The change the new version records ({@link ChangeKind#PREVIEW} for an accepted preview). */
    ChangeKind kind();

    /** The write, for the config's {@code configId} at {@code version}. */
    TransactWriteItem item(String configId, long version, Instant now);

    /** Why its condition failed, read fresh: this says more than anything else that failed with it. */
    RuntimeException refusal(Instant now);

    /** Fails with its own refusal, if it has one, before the change is refused as not found or moved on. */
    void checkBeforeRefusing(Instant now);

    /** What the new version's item records of it. */
    Map<String, AttributeValue> versionAttributes();
}
