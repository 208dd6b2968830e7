package dev.tablewright.systemtest.userinput;

import dev.tablewright.fakes.dynamodb.DynamoDbEngine;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link UserInputApiSuite} on LocalStack through Testcontainers: skipped (not failed) where Docker is not available. */
class UserInputApiOnLocalStackTest extends UserInputApiSuite {

    @RegisterExtension
    static final DynamoDbEngine ENGINE = DynamoDbEngine.localStack();

    @Override
    DynamoDbEngine engine() {
        return ENGINE;
    }
}
