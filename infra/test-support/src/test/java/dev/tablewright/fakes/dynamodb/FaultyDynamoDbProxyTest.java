package dev.tablewright.fakes.dynamodb;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

import java.io.IOException;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The proxy's faults, seen by the SDK in front of DynamoDB Local: a lost answer was committed, a reset was not. */
class FaultyDynamoDbProxyTest {

    @RegisterExtension
    static final DynamoDbEngine ENGINE = DynamoDbEngine.dynamoDbLocal();

    FaultyDynamoDbProxy proxy;
    DynamoDbClient client;
    String table;

    @BeforeEach
    void setUp() throws IOException {
        proxy = new FaultyDynamoDbProxy(ENGINE.endpoint());
        client = DynamoDbLocalLauncher.clientFor(proxy.endpoint());
        table = ENGINE.tables().tableName("McpSessionsTable");
    }

    @AfterEach
    void tearDown() {
        proxy.close();
    }

    private Map<String, AttributeValue> item(String id) {
        return Map.of("pk", AttributeValue.fromS(id));
    }

    @Test
    void aLostAnswerIsCommittedAndTheSdkRetriesIt() {
        proxy.fail("PutItem", table, FaultyDynamoDbProxy.Fault.LOSE_ANSWER, 1);
        client.putItem(b -> b.tableName(table).item(item("lost")));
        assertEquals(1, proxy.faultedCalls("PutItem"));
        assertEquals(2, proxy.forwardedCalls("PutItem"), "the first call reached DynamoDB, and so did the SDK's retry");
        assertTrue(ENGINE.client().getItem(b -> b.tableName(table).key(item("lost")).consistentRead(true)).hasItem());
    }

    @Test
    void aConditionalWriteWhoseAnswerWasLostFailsItsOwnConditionOnTheRetry() {
        proxy.fail("PutItem", table, FaultyDynamoDbProxy.Fault.LOSE_ANSWER, 1);
        assertThrows(software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException.class,
                () -> client.putItem(b -> b.tableName(table).item(item("once")).conditionExpression("attribute_not_exists(pk)")));
    }

    @Test
    void aResetNeverReachesDynamoDbAndOnlyTheNamedTableIsFaulted() {
        proxy.fail("PutItem", table, FaultyDynamoDbProxy.Fault.RESET, 1);
        String other = ENGINE.tables().tableName("PreviewsTable");
        client.putItem(b -> b.tableName(other).item(Map.of("pk", AttributeValue.fromS("p"), "sk", AttributeValue.fromS("s"))));
        assertEquals(0, proxy.faultedCalls("PutItem"), "another table's call is forwarded");
        client.putItem(b -> b.tableName(table).item(item("reset")));
        assertEquals(1, proxy.faultedCalls("PutItem"));
        assertEquals(2, proxy.forwardedCalls("PutItem"), "the reset call never reached DynamoDB");
    }

    @Test
    void throttlingAndInternalErrorsAreCountedAndRetriedUntilTheyStop() {
        proxy.fail("GetItem", table, FaultyDynamoDbProxy.Fault.PROVISIONED_THROUGHPUT, 2);
        proxy.fail("GetItem", table, FaultyDynamoDbProxy.Fault.INTERNAL_ERROR, 1);
        client.getItem(b -> b.tableName(table).key(item("none")));
        assertEquals(3, proxy.faultedCalls("GetItem"));

        proxy.fail("GetItem", FaultyDynamoDbProxy.Fault.THROTTLING);
        // three attempts: the SDK's default would back off for most of a minute before giving up
        DynamoDbClient impatient = DynamoDbLocalLauncher.clientFor(proxy.endpoint(), o -> o.retryStrategy(b -> b.maxAttempts(3)));
        DynamoDbException refused = assertThrows(DynamoDbException.class, () -> impatient.getItem(b -> b.tableName(table).key(item("none"))));
        assertTrue(refused.isThrottlingException(), refused.toString());
    }
}
