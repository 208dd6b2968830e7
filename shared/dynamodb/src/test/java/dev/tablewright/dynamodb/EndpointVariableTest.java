package dev.tablewright.dynamodb;

import dev.tablewright.fakes.dynamodb.DynamoDbEngine;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The fakes hand a function its DynamoDB endpoint under the name this adapter reads it from. */
class EndpointVariableTest {
    @Test
    void theEngineAndTheAdapterNameTheSameVariable() {
        assertEquals(DynamoDbClients.ENDPOINT_ENV, DynamoDbEngine.ENDPOINT_VARIABLE);
    }
}
