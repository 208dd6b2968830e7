package dev.tablewright.dynamodb;

import dev.tablewright.fakes.dynamodb.DynamoDbEngine;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Skipped (not failed) where Docker is not available. */
class ConfigStoreOnLocalStackTest extends ConfigStoreSuite {
    @RegisterExtension
    static final DynamoDbEngine ENGINE = DynamoDbEngine.localStack();

    @Override
    DynamoDbEngine engine() {
        return ENGINE;
    }
}
