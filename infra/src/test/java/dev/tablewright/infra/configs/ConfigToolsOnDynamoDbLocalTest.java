package dev.tablewright.infra.configs;

import dev.tablewright.infra.dynamodb.DynamoDbEngine;
import org.junit.jupiter.api.extension.RegisterExtension;

class ConfigToolsOnDynamoDbLocalTest extends ConfigToolsSuite {
    @RegisterExtension
    static final DynamoDbEngine ENGINE = DynamoDbEngine.dynamoDbLocal();

    @Override
    DynamoDbEngine engine() {
        return ENGINE;
    }
}
