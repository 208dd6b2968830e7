package dev.tablewright.systemtest.configs;

import dev.tablewright.fakes.dynamodb.DynamoDbEngine;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Skipped (not failed) where Docker is not available. */
class ConfigToolsOnLocalStackTest extends ConfigToolsSuite {
    @RegisterExtension
    static final DynamoDbEngine ENGINE = DynamoDbEngine.localStack();

    @Override
    DynamoDbEngine engine() {
        return ENGINE;
    }
}
