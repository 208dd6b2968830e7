package dev.tablewright.dynamodb;

import dev.tablewright.lambda.LoopbackResponder;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * SnapStart priming of the DynamoDB path: one GetItem through a client built like the function's own, answered with
 * a canned item by a {@link LoopbackResponder}. Nothing reaches DynamoDB (a local endpoint, so the local fixed credentials);
 * what the first real call would load (the request marshallers, SigV4 signing, the HTTP client, response
 * unmarshalling, the retry and endpoint code) is loaded before the snapshot instead.
 */
final class LoopbackDynamoDbPriming {

    private static final byte[] ITEM = "{\"Item\":{\"pk\":{\"S\":\"priming\"},\"n\":{\"N\":\"1\"}}}".getBytes(StandardCharsets.UTF_8);

    private LoopbackDynamoDbPriming() {
    }

    static Map<String, AttributeValue> run(Map<String, String> env) {
        DynamoDbClients.Settings settings = new DynamoDbClients.Settings(Duration.ofSeconds(2), Duration.ofSeconds(2),
                Duration.ofSeconds(5), 1);
        try (LoopbackResponder dynamoDb = LoopbackResponder.answering("application/x-amz-json-1.0",
                Map.of("x-amzn-RequestId", "priming"), ITEM);
             DynamoDbClient client = DynamoDbClients.build(dynamoDb.uri(), env, settings)) {
            return client.getItem(b -> b.tableName("priming")
                    .key(Map.of("pk", AttributeValue.fromS("priming"))).consistentRead(true)).item();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("DynamoDB priming failed", e);
        }
    }
}
