package dev.tablewright.dynamodb;

import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

import java.util.Map;
import java.util.UUID;

/**
 * A write DynamoDB makes only when its condition holds (a status move, a rename of what exists, a delete by its
 * owner): whether it was made. A failed condition is an answer, not a fault; every other SDK fault goes through
 * {@link DynamoDbFaults}, as in every store.
 *
 * <p>A write whose answer was lost after it committed (the connection dropped, the function froze, a 500 after the
 * commit) is retried by the SDK, and the retry fails its own condition. So a write that can be retried marks its item
 * with its own id ({@link #WRITE_ID}, a new one per store call, the same for the SDK's retries of it) and asks for
 * the item as it stood when its condition failed ({@code ReturnValuesOnConditionCheckFailure.ALL_OLD}): when that
 * item carries its id, the write was its own and is reported made ({@link #madeOnce}); any other item is a real
 * conflict, refused as before.
 */
final class ConditionalWrite {

    /** The attribute naming the last write (its id) that changed an item. */
    static final String WRITE_ID = "writeId";

    private ConditionalWrite() {
    }

    /** A new write's id. */
    static String newId() {
        return UUID.randomUUID().toString();
    }

    /** Runs {@code write}: true when it was made, false when its condition did not hold. */
    static boolean made(Runnable write) {
        try {
            write.run();
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false;
        } catch (SdkException e) {
            throw DynamoDbFaults.translate(e);
        }
    }

    /**
     * Runs {@code write}, which sets {@link #WRITE_ID} to {@code writeId} and asks for the old item on a failed
     * condition: true when it was made, now or by an attempt of this same write whose answer was lost; false when
     * its condition did not hold for another reason.
     */
    static boolean madeOnce(String writeId, Runnable write) {
        try {
            write.run();
            return true;
        } catch (ConditionalCheckFailedException e) {
            return isOwn(writeId, e.hasItem() ? e.item() : null);
        } catch (SdkException e) {
            throw DynamoDbFaults.translate(e);
        }
    }

    /** Whether {@code item} (as a failed condition found it) was last written by the write {@code writeId}. */
    static boolean isOwn(String writeId, Map<String, AttributeValue> item) {
        return item != null && writeId.equals(Attributes.string(item, WRITE_ID));
    }
}
