package dev.tablewright.dynamodb;

import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/**
 * A write DynamoDB makes only when its condition holds (a status move, a rename of what exists, a delete by its
 * owner): whether it was made. A failed condition is an answer, not a fault; every other SDK fault goes through
 * {@link DynamoDbFaults}, as in every store.
 */
final class ConditionalWrite {

    private ConditionalWrite() {
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
}
