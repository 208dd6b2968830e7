package dev.tablewright.systemtest.configs;

import dev.tablewright.fakes.dynamodb.DynamoDbEngine;
import org.junit.jupiter.api.extension.RegisterExtension;

class ConfigApiOnDynamoDbLocalTest extends ConfigApiSuite {
    @RegisterExtension
    static final DynamoDbEngine ENGINE = DynamoDbEngine.dynamoDbLocal();

    @Override
    DynamoDbEngine engine() {
        return ENGINE;
    }
}
