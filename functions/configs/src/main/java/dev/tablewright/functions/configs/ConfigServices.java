package dev.tablewright.functions.configs;

import dev.tablewright.configstore.ConfigStore;
import dev.tablewright.dynamodb.DynamoConfigStore;
import dev.tablewright.dynamodb.DynamoDbClients;
import dev.tablewright.dynamodb.DynamoPreviewAcceptance;
import dev.tablewright.dynamodb.DynamoPreviewStore;
import dev.tablewright.lambda.Env;
import dev.tablewright.preview.PreviewDecisions;
import dev.tablewright.postgres.GroundingCatalogs;
import dev.tablewright.preview.PreviewStore;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.time.Clock;

/**
 * What a config or preview handler works with, built once per function instance (at init, in the handler's
 * no-arg constructor) from the environment: one DynamoDB client, the two stores, the clock. Tests and the local
 * stack pass their own through each handler's {@code (ConfigServices)} constructor.
 */
public record ConfigServices(ConfigStore configs, PreviewStore previews, PreviewDecisions decisions, Clock clock,
                             GroundingCatalogs grounding) {

    /**
     * {@code DYNAMODB_ENDPOINT}, {@code CONFIGS_TABLE}, {@code PREVIEWS_TABLE} from the environment; configs are
     * grounded against the database when one is configured ({@link GroundingCatalogs}).
     */
    public static ConfigServices fromEnvironment() {
        ConfigsSettings settings = ConfigsSettings.fromEnvironment();
        return of(DynamoDbClients.fromEnvironment(Env.all()), settings.configsTable(), settings.previewsTable(),
                Clock.systemUTC(), GroundingCatalogs.configured(Env.all()));
    }

    /** Ungrounded: configs are checked against the wire format's invariants only. */
    public static ConfigServices of(DynamoDbClient dynamo, String configsTable, String previewsTable, Clock clock) {
        return of(dynamo, configsTable, previewsTable, clock, GroundingCatalogs.NONE);
    }

    private static ConfigServices of(DynamoDbClient dynamo, String configsTable, String previewsTable, Clock clock,
                                     GroundingCatalogs grounding) {
        DynamoConfigStore configs = new DynamoConfigStore(dynamo, configsTable);
        DynamoPreviewStore previews = new DynamoPreviewStore(dynamo, previewsTable);
        return new ConfigServices(configs, previews,
                new PreviewDecisions(previews, new DynamoPreviewAcceptance(configs, previews)), clock, grounding);
    }
}
