package dev.tablewright.systemtest.configs;

import dev.tablewright.fakes.dynamodb.DynamoDbEngine;
import dev.tablewright.fakes.template.SamTemplate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;

import java.util.Map;

import static dev.tablewright.fakes.template.SamTemplate.map;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** ConfigsTable and PreviewsTable as template.yaml declares them: on-demand, PITR, encryption, TTL on previews. */
class ConfigTablesTemplateTest {

    @RegisterExtension
    static final DynamoDbEngine ENGINE = DynamoDbEngine.dynamoDbLocal();

    @Test
    void bothTablesAreOnDemandWithRecoveryAndEncryption() throws Exception {
        Map<String, Map<String, Object>> tables = SamTemplate.load(SamTemplate.locate()).resourcesOfType("AWS::DynamoDB::Table");
        for (String id : new String[]{"ConfigsTable", "PreviewsTable"}) {
            Map<String, Object> p = map(tables.get(id).get("Properties"));
            assertEquals("PAY_PER_REQUEST", p.get("BillingMode"), id);
            assertEquals(true, map(p.get("PointInTimeRecoverySpecification")).get("PointInTimeRecoveryEnabled"), id);
            assertEquals(true, map(p.get("SSESpecification")).get("SSEEnabled"), id);
        }
        // accepted configs are the users' work: the table outlives a stack deletion (unless RetainDataOnDelete=false)
        assertEquals(new SamTemplate.Intrinsic("If", java.util.List.of("RetainData", "Retain", "Delete")),
                tables.get("ConfigsTable").get("DeletionPolicy"));
    }

    @Test
    void previewsExpireByTtlOnTheAttributeTheStoreWrites() {
        var ttl = ENGINE.client().describeTimeToLive(b -> b.tableName(ENGINE.tables().tableName("PreviewsTable")))
                .timeToLiveDescription();
        assertEquals(TimeToLiveStatus.ENABLED, ttl.timeToLiveStatus());
        assertEquals("expiresAtEpoch", ttl.attributeName());
    }
}
