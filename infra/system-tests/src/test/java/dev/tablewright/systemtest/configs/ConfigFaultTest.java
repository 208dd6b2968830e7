package dev.tablewright.systemtest.configs;

import dev.tablewright.fakes.configs.SampleConfigs;

import dev.tablewright.dynamodb.DynamoDbClients;
import dev.tablewright.systemtest.faults.ImpatientDynamoDb;
import dev.tablewright.functions.configs.ConfigServices;
import dev.tablewright.systemtest.http.InProcessHttpApi.Answer;
import dev.tablewright.fakes.dynamodb.DynamoDbEngine;
import dev.tablewright.fakes.dynamodb.FaultyDynamoDbProxy;
import dev.tablewright.fakes.dynamodb.FaultyDynamoDbProxy.Fault;
import dev.tablewright.preview.PendingPreview;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DynamoDB throttling and internal errors (which DynamoDB Local never produces) on the config and preview routes,
 * provoked by a proxy in front of DynamoDB Local: 503 with Retry-After after the SDK's retries, and nothing written.
 */
class ConfigFaultTest {

    @RegisterExtension
    static final DynamoDbEngine ENGINE = DynamoDbEngine.dynamoDbLocal();

    FaultyDynamoDbProxy proxy;
    ConfigRoutes healthy;
    ConfigRoutes throughProxy;
    String owner;

    @BeforeEach
    void setUp() throws IOException {
        String configs = ENGINE.tables().tableName("ConfigsTable");
        String previews = ENGINE.tables().tableName("PreviewsTable");
        healthy = new ConfigRoutes(ConfigServices.of(ENGINE.client(), configs, previews, Clock.systemUTC()));
        proxy = new FaultyDynamoDbProxy(ENGINE.endpoint());
        throughProxy = new ConfigRoutes(ConfigServices.of(DynamoDbClients.forEndpoint(proxy.endpoint(), ImpatientDynamoDb.SETTINGS),
                configs, previews, Clock.systemUTC()));
        owner = "u-" + UUID.randomUUID();
    }

    @AfterEach
    void tearDown() {
        proxy.close();
    }

    @Test
    void aThrottledAcceptIs503AndLeavesConfigAndPreviewAsTheyWere() {
        Answer created = healthy.call(owner, "POST", "/configs", ConfigApiSuite.body(SampleConfigs.orders("Throttled"), null));
        String id = created.body().get("configId").asText();
        PendingPreview p = PendingPreview.create(owner, "c_1", id, 1L, "next", SampleConfigs.describe(SampleConfigs.orders("Throttled"), "next"),
                null, Instant.now(), PendingPreview.DEFAULT_TTL);
        ConfigServices.of(ENGINE.client(), ENGINE.tables().tableName("ConfigsTable"), ENGINE.tables().tableName("PreviewsTable"),
                Clock.systemUTC()).previews().save(p);

        proxy.fail("TransactWriteItems", Fault.THROTTLING);
        Answer accept = throughProxy.call(owner, "POST", "/previews/" + p.previewId() + "/accept");
        assertUnavailable(accept);
        assertEquals(3, proxy.faultedCalls("TransactWriteItems"), "the SDK retried before giving up");
        assertEquals(1, healthy.call(owner, "GET", "/configs/" + id).body().get("version").asLong(), "no version was written");
        assertEquals("pending", healthy.call(owner, "GET", "/previews/" + p.previewId()).body().get("status").asText());

        // once DynamoDB recovers, the same accept goes through
        proxy.heal();
        assertEquals(200, throughProxy.call(owner, "POST", "/previews/" + p.previewId() + "/accept").status());
    }

    @Test
    void internalErrorsOnReadsAndWritesAre503() {
        proxy.fail("GetItem", Fault.INTERNAL_ERROR);
        proxy.fail("Query", Fault.THROTTLING);
        proxy.fail("TransactWriteItems", Fault.INTERNAL_ERROR);
        assertUnavailable(throughProxy.call(owner, "GET", "/configs/cfg_x"));
        assertUnavailable(throughProxy.call(owner, "GET", "/configs"));
        assertUnavailable(throughProxy.call(owner, "POST", "/configs", ConfigApiSuite.body(SampleConfigs.orders("Failing"), null)));
        assertEquals(0, healthy.call(owner, "GET", "/configs").body().get("configs").size(), "nothing was written");
    }

    /** An update under a 500 burst longer than the SDK's retries: 503, the config at its version; then it goes through. */
    @Test
    void anUpdateUnderA500BurstIs503AndWritesNoVersion() {
        String id = healthy.call(owner, "POST", "/configs", ConfigApiSuite.body(SampleConfigs.orders("Updated"), null)).body()
                .get("configId").asText();
        proxy.fail("TransactWriteItems", Fault.INTERNAL_ERROR);
        String change = ConfigApiSuite.body(SampleConfigs.describe(SampleConfigs.orders("Updated"), "v2"), 1L);
        assertUnavailable(throughProxy.call(owner, "PUT", "/configs/" + id, change));
        assertTrue(proxy.faultedCalls("TransactWriteItems") > 1, "the SDK retried before giving up");
        assertEquals(1, healthy.call(owner, "GET", "/configs/" + id).body().get("version").asLong(), "no version was written");
        assertEquals(1, healthy.call(owner, "GET", "/configs/" + id + "/versions").body().get("versions").size());

        proxy.heal();
        assertEquals(2, throughProxy.call(owner, "PUT", "/configs/" + id, change).body().get("version").asLong());
    }

    private static void assertUnavailable(Answer answer) {
        assertEquals(503, answer.status(), answer.toString());
        assertEquals("unavailable", answer.errorCode());
        assertNotNull(answer.headers().get("Retry-After"), answer.toString());
        assertTrue(Integer.parseInt(answer.headers().get("Retry-After")) >= 1);
    }
}
