package dev.tablewright.systemtest.userinput;

import dev.tablewright.fakes.dynamodb.DynamoDbEngine;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link UserInputApiSuite} on DynamoDB Local, in this JVM: runs everywhere. */
class UserInputApiOnDynamoDbLocalTest extends UserInputApiSuite {

    @RegisterExtension
    static final DynamoDbEngine ENGINE = DynamoDbEngine.dynamoDbLocal();

    @Override
    DynamoDbEngine engine() {
        return ENGINE;
    }
}
