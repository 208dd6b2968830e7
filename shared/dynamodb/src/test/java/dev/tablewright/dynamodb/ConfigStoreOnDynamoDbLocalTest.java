package dev.tablewright.dynamodb;

import dev.tablewright.fakes.dynamodb.DynamoDbEngine;
import org.junit.jupiter.api.extension.RegisterExtension;

class ConfigStoreOnDynamoDbLocalTest extends ConfigStoreSuite {
    @RegisterExtension
    static final DynamoDbEngine ENGINE = DynamoDbEngine.dynamoDbLocal();

    @Override
    DynamoDbEngine engine() {
        return ENGINE;
    }
}
