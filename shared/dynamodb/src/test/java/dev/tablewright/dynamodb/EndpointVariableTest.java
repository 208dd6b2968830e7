package dev.tablewright.dynamodb;

import dev.tablewright.fakes.dynamodb.DynamoDbEngine;
import dev.tablewright.fakes.dynamodb.DynamoDbLocalLauncher;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The fakes hand a function its DynamoDB endpoint under the name this adapter reads it from, and sign as it does. */
class EndpointVariableTest {
    @Test
    void theEngineAndTheAdapterNameTheSameVariable() {
        assertEquals(DynamoDbClients.ENDPOINT_ENV, DynamoDbEngine.ENDPOINT_VARIABLE);
    }

    /** LocalStack keeps tables per account (the access key) and region: the tests' set-up client and the functions' agree. */
    @Test
    void theLaunchersClientAndTheAdapterSignLocalCallsAlike() {
        assertEquals(DynamoDbClients.LOCAL_ACCESS_KEY_ID, DynamoDbLocalLauncher.LOCAL_ACCESS_KEY_ID);
        assertEquals(DynamoDbClients.LOCAL_REGION, DynamoDbLocalLauncher.LOCAL_REGION);
    }
}
