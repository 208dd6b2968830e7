package dev.tablewright.functions.configs;

import dev.tablewright.configstore.StoredConfig;
import dev.tablewright.dynamodb.DynamoConfigStore;
import dev.tablewright.dynamodb.DynamoDbClients;
import dev.tablewright.dynamodb.DynamoPreviewStore;
import dev.tablewright.lambda.Env;
import dev.tablewright.postgres.PostgresDatabases;
import dev.tablewright.preview.PendingPreview;
import dev.tablewright.tools.PreviewTableConfigTool;
import dev.tablewright.tools.SearchDatabaseSchemaTool;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.time.Clock;

/**
 * The database tools wired from the environment, built once per function instance (at init): data sources from
 * {@code DATA_SOURCES} / {@code DATABASE_SECRET_ARN} / {@code DATABASE_URL} (connections open on first use, during
 * an invocation, which is when the secrets extension answers), stores on DynamoDB.
 */
final class DatabaseTools {

    private DatabaseTools() {
    }

    static SearchDatabaseSchemaTool search() {
        return new SearchDatabaseSchemaTool(PostgresDatabases.fromEnvironment(Env.all()));
    }

    static PreviewTableConfigTool preview() {
        ConfigsSettings settings = ConfigsSettings.fromEnvironment();
        DynamoDbClient dynamo = DynamoDbClients.fromEnvironment(Env.all());
        DynamoConfigStore configs = new DynamoConfigStore(dynamo, settings.configsTable());
        PreviewTableConfigTool.BaseConfigs saved = new PreviewTableConfigTool.BaseConfigs() {
            @Override
            public java.util.Optional<dev.tablewright.config.TableConfig> current(String owner, String id) {
                return configs.get(owner, id).map(StoredConfig::config);
            }

            @Override
            public java.util.Optional<String> idNamed(String owner, String name) {
                return configs.getByName(owner, name).map(StoredConfig::configId);
            }
        };
        return new PreviewTableConfigTool(PostgresDatabases.fromEnvironment(Env.all()),
                new DynamoPreviewStore(dynamo, settings.previewsTable()), saved, Clock.systemUTC(), settings.previewSampleRows(),
                PendingPreview.DEFAULT_TTL);
    }
}
