package dev.tablewright.functions.configs;

import dev.tablewright.configstore.ConfigStore;
import dev.tablewright.dynamodb.DynamoConfigStore;
import dev.tablewright.dynamodb.DynamoDbClients;
import dev.tablewright.dynamodb.DynamoPreviewStore;
import dev.tablewright.preview.PreviewDecisions;
import dev.tablewright.preview.PreviewStore;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.time.Clock;

/**
 * What a config or preview handler works with, built once per function instance (at init, in the handler's
 * constructor) from the environment: one DynamoDB client, the two stores, the clock.
 */
record ConfigServices(ConfigStore configs, PreviewStore previews, PreviewDecisions decisions, Clock clock) {

    static ConfigServices fromEnvironment() {
        DynamoDbClient dynamo = DynamoDbClients.fromEnvironment();
        ConfigStore configs = DynamoConfigStore.fromEnvironment(dynamo);
        PreviewStore previews = DynamoPreviewStore.fromEnvironment(dynamo);
        return new ConfigServices(configs, previews, new PreviewDecisions(previews, configs), Clock.systemUTC());
    }
}
