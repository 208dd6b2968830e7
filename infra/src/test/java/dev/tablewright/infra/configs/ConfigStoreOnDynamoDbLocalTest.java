package dev.tablewright.infra.configs;

import dev.tablewright.infra.dynamodb.DynamoDbEngine;
import org.junit.jupiter.api.extension.RegisterExtension;

class ConfigStoreOnDynamoDbLocalTest extends ConfigStoreSuite {
    @RegisterExtension
    static final DynamoDbEngine ENGINE = DynamoDbEngine.dynamoDbLocal();

    @Override
    DynamoDbEngine engine() {
        return ENGINE;
    }
}
