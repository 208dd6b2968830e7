package dev.tablewright.infra.configs;

import dev.tablewright.infra.dynamodb.DynamoDbEngine;
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
