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
        DynamoDbClient dynamo = DynamoDbClients.fromEnvironment(Env.all());
        // Defaults: the logical ids, as the local stack names its tables; template.yaml sets the real names.
        String previewsTable = Env.get("PREVIEWS_TABLE", "PreviewsTable");
        DynamoConfigStore configs = new DynamoConfigStore(dynamo, Env.get("CONFIGS_TABLE", "ConfigsTable"));
        String rows = Env.get("PREVIEW_SAMPLE_ROWS");
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
        return new PreviewTableConfigTool(PostgresDatabases.fromEnvironment(Env.all()), new DynamoPreviewStore(dynamo, previewsTable),
                saved, Clock.systemUTC(),
                rows == null ? PreviewTableConfigTool.DEFAULT_SAMPLE_ROWS : Integer.parseInt(rows.trim()),
                PendingPreview.DEFAULT_TTL);
    }
}
