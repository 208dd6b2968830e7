package dev.tablewright.fakes.dynamodb;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The tables DynamoDB Local holds are the ones template.yaml declares: keys, indexes, billing, TTL. */
class TemplateTablesTest {

    @RegisterExtension
    static final DynamoDbEngine ENGINE = DynamoDbEngine.dynamoDbLocal();

    @Test
    void everyTemplateTableExistsAsDeclared() {
        TemplateTables template = TemplateTables.fromTemplate();
        assertTrue(template.logicalIds().contains("UserInputTable"), "template declares UserInputTable");
        for (String id : template.logicalIds()) {
            String name = ENGINE.tables().tableName(id);
            var declared = template.createTableRequest(id, name);
            TableDescription actual = ENGINE.client().describeTable(b -> b.tableName(name)).table();
            assertEquals(declared.keySchema(), actual.keySchema(), id + " key schema");
            assertEquals(declared.attributeDefinitions().stream().sorted(java.util.Comparator.comparing(a -> a.attributeName())).toList(),
                    actual.attributeDefinitions().stream().sorted(java.util.Comparator.comparing(a -> a.attributeName())).toList(),
                    id + " attribute definitions");
            assertEquals(declared.globalSecondaryIndexes().stream().map(g -> g.indexName() + g.keySchema() + g.projection()).sorted().toList(),
                    actual.globalSecondaryIndexes().stream().map(g -> g.indexName() + g.keySchema() + g.projection()).sorted().toList(),
                    id + " global secondary indexes");
            if (declared.billingMode() == BillingMode.PAY_PER_REQUEST) {
                assertEquals(BillingMode.PAY_PER_REQUEST, actual.billingModeSummary().billingMode(), id + " billing mode");
            }
        }
    }

    @Test
    void everyTableIsDeclaredOnDemandWithRecoveryAndEncryption() throws java.io.IOException {
        var template = dev.tablewright.fakes.template.SamTemplate.load(dev.tablewright.fakes.template.SamTemplate.locate());
        template.resourcesOfType("AWS::DynamoDB::Table").forEach((id, resource) -> {
            var p = dev.tablewright.fakes.template.SamTemplate.map(resource.get("Properties"));
            assertEquals("PAY_PER_REQUEST", p.get("BillingMode"), id + " is on-demand");
            assertEquals(Boolean.TRUE, dev.tablewright.fakes.template.SamTemplate.map(p.get("PointInTimeRecoverySpecification"))
                    .get("PointInTimeRecoveryEnabled"), id + " has point-in-time recovery");
            assertEquals(Boolean.TRUE, dev.tablewright.fakes.template.SamTemplate.map(p.get("SSESpecification")).get("SSEEnabled"),
                    id + " is encrypted at rest");
        });
    }

    @Test
    void userInputTableHasItsKeysAndTtl() {
        String name = ENGINE.tables().tableName("UserInputTable");
        TableDescription table = ENGINE.client().describeTable(b -> b.tableName(name)).table();
        assertEquals("pk", table.keySchema().stream().filter(k -> k.keyType() == KeyType.HASH).findFirst().orElseThrow().attributeName());
        assertEquals("sk", table.keySchema().stream().filter(k -> k.keyType() == KeyType.RANGE).findFirst().orElseThrow().attributeName());
        var ttl = ENGINE.client().describeTimeToLive(b -> b.tableName(name)).timeToLiveDescription();
        assertEquals(TimeToLiveStatus.ENABLED, ttl.timeToLiveStatus());
        assertEquals("expiresAt", ttl.attributeName());
    }
}
