package dev.tablewright.systemtest.userinput;

import dev.tablewright.dynamodb.DynamoDbClients;
import dev.tablewright.systemtest.faults.ImpatientDynamoDb;
import dev.tablewright.functions.userinput.UserInputFunction;
import dev.tablewright.fakes.dynamodb.DynamoDbEngine;
import dev.tablewright.fakes.dynamodb.FaultyDynamoDbProxy;
import dev.tablewright.systemtest.http.InProcessHttpApi;
import dev.tablewright.userinput.InputRequestService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.tablewright.systemtest.userinput.UserInputApiSuite.GOOD_VALUES;
import static dev.tablewright.systemtest.userinput.UserInputApiSuite.databaseForm;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DynamoDB unreachable, throttling, or failing → 503 with Retry-After after the SDK's retries, and nothing
 * half-written. Throttling and 500s are provoked by {@link FaultyDynamoDbProxy} in front of DynamoDB Local.
 */
class UserInputFaultTest {

    @RegisterExtension
    static final DynamoDbEngine ENGINE = DynamoDbEngine.dynamoDbLocal();

    String table;
    String conversation;
    UserInputRoutes healthy;
    FaultyDynamoDbProxy proxy;
    UserInputRoutes throughProxy;

    @BeforeEach
    void setUp() throws IOException {
        table = ENGINE.tables().tableName("UserInputTable");
        conversation = "conv-" + UUID.randomUUID().toString().substring(0, 8);
        healthy = new UserInputRoutes(UserInputFunction.service(ENGINE.client(), table, InputRequestService.Expiry.DEFAULT, Clock.systemUTC()));
        proxy = new FaultyDynamoDbProxy(ENGINE.endpoint());
        DynamoDbClient viaProxy = DynamoDbClients.forEndpoint(proxy.endpoint(), ImpatientDynamoDb.SETTINGS);
        throughProxy = new UserInputRoutes(UserInputFunction.service(viaProxy, table, InputRequestService.Expiry.DEFAULT, Clock.systemUTC()));
    }

    @AfterEach
    void tearDown() {
        proxy.close();
    }

    private List<Map<String, AttributeValue>> storedItems() {
        return ENGINE.client().query(b -> b.tableName(table).consistentRead(true).keyConditionExpression("pk = :pk")
                .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS("O#dev-user#C#" + conversation)))).items();
    }

    private static void assertUnavailable(InProcessHttpApi.Answer answer, String what) {
        assertEquals(503, answer.status(), what + ": " + answer.body());
        assertEquals("unavailable", answer.errorCode(), what);
        assertTrue(Integer.parseInt(answer.headers().get("Retry-After")) >= 1, what + " carries Retry-After");
        assertFalse(answer.body().toString().contains("Exception"), what + " shows no exception");
    }

    @Test
    void unreachableDynamoDbIs503OnEveryRoute() throws IOException {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        DynamoDbClient unreachable = DynamoDbClients.forEndpoint(URI.create("http://127.0.0.1:" + closedPort), ImpatientDynamoDb.SETTINGS);
        UserInputRoutes api = new UserInputRoutes(UserInputFunction.service(unreachable, table, InputRequestService.Expiry.DEFAULT, Clock.systemUTC()));
        String base = "/conversations/" + conversation;
        assertUnavailable(api.call("dev-user", "POST", base + "/input-requests", databaseForm("call_1")), "create");
        assertUnavailable(api.call("dev-user", "GET", base + "/input-requests", null), "list");
        assertUnavailable(api.call("dev-user", "GET", base + "/input-requests/call_1", null), "get one");
        assertUnavailable(api.call("dev-user", "POST", base + "/input-requests/call_1/response", "{\"values\": " + GOOD_VALUES + "}"), "submit");
        assertUnavailable(api.call("dev-user", "POST", base + "/input-requests/call_1/cancel", null), "cancel");
        assertUnavailable(api.call("dev-user", "GET", base + "/values", null), "values");
        assertUnavailable(api.call("dev-user", "GET", "/users/me/values", null), "user values");
        assertUnavailable(api.call("dev-user", "DELETE", "/users/me/values/database", null), "clear user value");
        assertTrue(storedItems().isEmpty());
    }

    @Test
    void throttledCreateIs503AfterTheSdkRetriesAndWritesNothing() {
        proxy.fail("TransactWriteItems", FaultyDynamoDbProxy.Fault.THROTTLING);
        var answer = throughProxy.call("dev-user", "POST", "/conversations/" + conversation + "/input-requests", databaseForm("call_1"));
        assertUnavailable(answer, "create");
        assertEquals(3, proxy.faultedCalls("TransactWriteItems"), "the SDK retried before giving up");
        assertTrue(storedItems().isEmpty(), "neither the request nor the conversation was written");
    }

    @Test
    void throttledOrFailingSubmitIs503AndLeavesTheRequestPendingWithNoValues() {
        assertEquals(201, healthy.call("dev-user", "POST", "/conversations/" + conversation + "/input-requests", databaseForm("call_1")).status());
        String submitPath = "/conversations/" + conversation + "/input-requests/call_1/response";
        String body = "{\"values\": " + GOOD_VALUES + "}";

        // the faults DynamoDB answers without writing (a lost answer is a committed write: ConditionalWritesUnderFaultsTest)
        for (FaultyDynamoDbProxy.Fault fault : List.of(FaultyDynamoDbProxy.Fault.THROTTLING,
                FaultyDynamoDbProxy.Fault.PROVISIONED_THROUGHPUT, FaultyDynamoDbProxy.Fault.INTERNAL_ERROR)) {
            proxy.fail("TransactWriteItems", fault);
            assertUnavailable(throughProxy.call("dev-user", "POST", submitPath, body), "submit under " + fault);
            var items = storedItems();
            assertEquals("pending", items.stream().filter(i -> i.get("sk").s().equals("R#call_1")).findFirst().orElseThrow().get("status").s());
            assertTrue(items.stream().noneMatch(i -> i.get("sk").s().startsWith("V#")), "no value saved under " + fault);
        }

        proxy.fail("*", FaultyDynamoDbProxy.Fault.THROTTLING);
        assertUnavailable(throughProxy.call("dev-user", "GET", "/conversations/" + conversation + "/input-requests", null), "list");
        assertUnavailable(throughProxy.call("dev-user", "GET", "/conversations/" + conversation + "/values", null), "values");

        proxy.heal();
        var retried = throughProxy.call("dev-user", "POST", submitPath, body);
        assertEquals(200, retried.status(), "once DynamoDB answers again the same submit succeeds: " + retried.body());
        assertEquals(6, storedItems().stream().filter(i -> i.get("sk").s().startsWith("V#")).count());
    }

    /**
     * A cancel and a clear of a saved value under a 500 burst longer than the SDK's retries: 503 with Retry-After, the
     * request still pending and the value still saved; once DynamoDB answers again the same requests succeed.
     */
    @Test
    void aCancelAndAClearUnderA500BurstAre503AndChangeNothing() {
        String base = "/conversations/" + conversation + "/input-requests";
        assertEquals(201, healthy.call("dev-user", "POST", base, databaseForm("call_1")).status());
        String field = "region_" + conversation.replace('-', '_');
        assertEquals(201, healthy.call("dev-user", "POST", base, """
                {"toolName": "pick_region", "toolCallId": "call_r", "reason": "Region?", "saveForSession": true, "scope": "user",
                 "fields": [{"name": "%s", "type": "select", "options": ["eu", "us"], "required": true}]}""".formatted(field)).status());
        assertEquals(200, healthy.call("dev-user", "POST", base + "/call_r/response", "{\"values\": {\"" + field + "\": \"eu\"}}").status());

        proxy.fail("UpdateItem", FaultyDynamoDbProxy.Fault.INTERNAL_ERROR);
        proxy.fail("DeleteItem", FaultyDynamoDbProxy.Fault.INTERNAL_ERROR);
        assertUnavailable(throughProxy.call("dev-user", "POST", base + "/call_1/cancel", null), "cancel");
        assertUnavailable(throughProxy.call("dev-user", "DELETE", "/users/me/values/" + field, null), "clear user value");
        assertTrue(proxy.faultedCalls("UpdateItem") > 1 && proxy.faultedCalls("DeleteItem") > 1, "the SDK retried before giving up");
        assertEquals("pending", storedItems().stream().filter(i -> i.get("sk").s().equals("R#call_1")).findFirst().orElseThrow()
                .get("status").s(), "still pending");
        assertTrue(healthy.call("dev-user", "GET", "/users/me/values", null).body().toString().contains(field), "still saved");

        proxy.heal();
        assertEquals(200, throughProxy.call("dev-user", "POST", base + "/call_1/cancel", null).status());
        assertEquals(204, throughProxy.call("dev-user", "DELETE", "/users/me/values/" + field, null).status());
    }
}
