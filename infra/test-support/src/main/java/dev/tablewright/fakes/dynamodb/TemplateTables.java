package dev.tablewright.fakes.dynamodb;

import dev.tablewright.fakes.template.SamTemplate;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughput;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.tablewright.fakes.template.SamTemplate.list;
import static dev.tablewright.fakes.template.SamTemplate.map;

/**
 * Creates the {@code AWS::DynamoDB::Table} resources of template.yaml in a DynamoDB engine (DynamoDB Local,
 * LocalStack), exactly as declared: attribute definitions, key schema, global and local secondary indexes with
 * their projections, billing mode, and the TTL attribute. Point-in-time recovery and encryption at rest are
 * account-side settings the local engines do not model; they are read from the template only by its tests.
 *
 * <p>Local table names are {@code prefix + logicalId} so several suites can share one engine without seeing each
 * other's items; functions find them through the environment variable the template gives them
 * ({@link Created#environment()}).
 */
public final class TemplateTables {

    /** The environment variable each table's name reaches the functions through (docs/configuration.md). */
    public static final Map<String, String> ENVIRONMENT_NAMES = Map.of(
            "UserInputTable", "USER_INPUT_TABLE",
            "PreviewsTable", "PREVIEWS_TABLE",
            "ConfigsTable", "CONFIGS_TABLE",
            "ConversationsTable", "CONVERSATIONS_TABLE",
            "TurnStreamsTable", "TURN_STREAMS_TABLE",
            "McpSessionsTable", "MCP_SESSIONS_TABLE");

    private final SamTemplate template;

    public TemplateTables(SamTemplate template) {
        this.template = template;
    }

    public static TemplateTables fromTemplate() {
        try {
            return new TemplateTables(SamTemplate.load(SamTemplate.locate()));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** What was created: logical id → table name. */
    public record Created(Map<String, String> tableNames) {
        public String tableName(String logicalId) {
            String name = tableNames.get(logicalId);
            if (name == null) {
                throw new IllegalArgumentException("template.yaml declares no table " + logicalId + " (has " + tableNames.keySet() + ")");
            }
            return name;
        }

        /** {@code USER_INPUT_TABLE=<name>} etc., for every created table with a known variable. */
        public Map<String, String> environment() {
            Map<String, String> env = new LinkedHashMap<>();
            tableNames.forEach((id, name) -> {
                String variable = ENVIRONMENT_NAMES.get(id);
                if (variable != null) {
                    env.put(variable, name);
                }
            });
            return env;
        }
    }

    /** The logical ids of the template's tables, in template order. */
    public List<String> logicalIds() {
        return List.copyOf(template.resourcesOfType("AWS::DynamoDB::Table").keySet());
    }

    /** Creates every table (an existing table of the same name is kept) and waits until each is active. */
    public Created createAll(DynamoDbClient client, String prefix) {
        Map<String, String> names = new LinkedHashMap<>();
        template.resourcesOfType("AWS::DynamoDB::Table").forEach((id, resource) -> {
            String name = prefix + id;
            create(client, name, map(resource.get("Properties")));
            names.put(id, name);
        });
        return new Created(names);
    }

    /** The CreateTable request for one declared table (public so the template test can compare it). */
    public CreateTableRequest createTableRequest(String logicalId, String tableName) {
        Map<String, Object> resource = template.resourcesOfType("AWS::DynamoDB::Table").get(logicalId);
        if (resource == null) {
            throw new IllegalArgumentException("no AWS::DynamoDB::Table " + logicalId + " in template.yaml");
        }
        return request(tableName, map(resource.get("Properties")));
    }

    private static void create(DynamoDbClient client, String name, Map<String, Object> properties) {
        try {
            client.createTable(request(name, properties));
        } catch (ResourceInUseException e) {
            return; // created by an earlier suite in this JVM
        }
        client.waiter().waitUntilTableExists(b -> b.tableName(name));
        Map<String, Object> ttl = map(properties.get("TimeToLiveSpecification"));
        if (Boolean.TRUE.equals(ttl.get("Enabled")) && ttl.get("AttributeName") != null) {
            client.updateTimeToLive(b -> b.tableName(name).timeToLiveSpecification(
                    t -> t.attributeName(String.valueOf(ttl.get("AttributeName"))).enabled(true)));
        }
        var status = client.describeTable(b -> b.tableName(name)).table().tableStatus();
        if (status != TableStatus.ACTIVE) {
            client.waiter().waitUntilTableExists(b -> b.tableName(name));
        }
    }

    private static CreateTableRequest request(String name, Map<String, Object> p) {
        BillingMode billing = BillingMode.fromValue(String.valueOf(p.getOrDefault("BillingMode", "PROVISIONED")));
        CreateTableRequest.Builder b = CreateTableRequest.builder()
                .tableName(name)
                .billingMode(billing)
                .attributeDefinitions(list(p.get("AttributeDefinitions")).stream().map(a -> AttributeDefinition.builder()
                        .attributeName(str(map(a), "AttributeName"))
                        .attributeType(str(map(a), "AttributeType")).build()).toList())
                .keySchema(keys(p.get("KeySchema")));
        if (billing != BillingMode.PAY_PER_REQUEST) {
            b.provisionedThroughput(throughput(p.get("ProvisionedThroughput")));
        }
        List<Object> gsis = list(p.get("GlobalSecondaryIndexes"));
        if (!gsis.isEmpty()) {
            b.globalSecondaryIndexes(gsis.stream().map(g -> {
                Map<String, Object> gsi = map(g);
                GlobalSecondaryIndex.Builder ib = GlobalSecondaryIndex.builder()
                        .indexName(str(gsi, "IndexName"))
                        .keySchema(keys(gsi.get("KeySchema")))
                        .projection(projection(gsi.get("Projection")));
                if (billing != BillingMode.PAY_PER_REQUEST) {
                    ib.provisionedThroughput(throughput(gsi.get("ProvisionedThroughput")));
                }
                return ib.build();
            }).toList());
        }
        List<Object> lsis = list(p.get("LocalSecondaryIndexes"));
        if (!lsis.isEmpty()) {
            b.localSecondaryIndexes(lsis.stream().map(l -> LocalSecondaryIndex.builder()
                    .indexName(str(map(l), "IndexName"))
                    .keySchema(keys(map(l).get("KeySchema")))
                    .projection(projection(map(l).get("Projection"))).build()).toList());
        }
        return b.build();
    }

    private static List<KeySchemaElement> keys(Object keySchema) {
        return list(keySchema).stream().map(k -> KeySchemaElement.builder()
                .attributeName(str(map(k), "AttributeName"))
                .keyType(str(map(k), "KeyType")).build()).toList();
    }

    private static Projection projection(Object value) {
        Map<String, Object> p = map(value);
        Projection.Builder b = Projection.builder().projectionType(String.valueOf(p.getOrDefault("ProjectionType", "ALL")));
        List<Object> nonKey = list(p.get("NonKeyAttributes"));
        if (!nonKey.isEmpty()) {
            b.nonKeyAttributes(nonKey.stream().map(String::valueOf).toList());
        }
        return b.build();
    }

    private static ProvisionedThroughput throughput(Object value) {
        Map<String, Object> t = map(value);
        return ProvisionedThroughput.builder()
                .readCapacityUnits(Long.parseLong(String.valueOf(t.getOrDefault("ReadCapacityUnits", 5))))
                .writeCapacityUnits(Long.parseLong(String.valueOf(t.getOrDefault("WriteCapacityUnits", 5)))).build();
    }

    private static String str(Map<String, Object> m, String key) {
        Object v = m.get(key);
        if (v == null) {
            throw new IllegalArgumentException("template.yaml table property " + key + " is missing");
        }
        return String.valueOf(v);
    }
}
