package dev.tablewright.systemtest.faults;

import dev.tablewright.dynamodb.DynamoDbClients;

import java.time.Duration;

/**
 * Client settings for the suites that exhaust the SDK's retries: short timeouts and three attempts keep them quick
 * while the SDK retries and gives up; deployed functions keep the SDK's defaults.
 */
public final class ImpatientDynamoDb {

    public static final DynamoDbClients.Settings SETTINGS = new DynamoDbClients.Settings(
            Duration.ofMillis(300), Duration.ofSeconds(2), Duration.ofSeconds(10), 3);

    private ImpatientDynamoDb() {
    }
}
