package dev.tablewright.systemtest.chat;

import dev.tablewright.dynamodb.DynamoPreviewStore;
import dev.tablewright.fakes.dynamodb.DynamoDbLocalLauncher;
import dev.tablewright.fakes.dynamodb.TemplateTables;
import dev.tablewright.fakes.sampledb.SampleDatabase;
import dev.tablewright.postgres.DatabaseUrl;
import dev.tablewright.postgres.PostgresDatabases;
import dev.tablewright.tools.PreviewTableConfigTool;
import dev.tablewright.tools.SearchDatabaseSchemaTool;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The database tools of a chat suite over the sample database (a database of the suite's own) and a previews table
 * of the template in DynamoDB Local. Close it after the suite: it holds the database connections.
 */
record SampleDatabaseTools(PostgresDatabases databases, SearchDatabaseSchemaTool search, PreviewTableConfigTool preview)
        implements AutoCloseable {

    static SampleDatabaseTools create(String tablePrefix) throws Exception {
        DatabaseUrl url = SampleDatabase.dedicated(DatabaseUrl.fromEnvironment(), "tablewright_chat_it");
        PostgresDatabases databases = new PostgresDatabases(Map.of(PostgresDatabases.DEFAULT_NAME, url::connect), SampleDatabase.SCHEMAS,
                Duration.ofSeconds(5), Duration.ofSeconds(60));
        DynamoDbClient dynamo = DynamoDbLocalLauncher.shared().client();
        String previews = TemplateTables.fromTemplate().createAll(dynamo, tablePrefix + UUID.randomUUID().toString().substring(0, 8) + "-")
                .tableName("PreviewsTable");
        return new SampleDatabaseTools(databases, new SearchDatabaseSchemaTool(databases),
                new PreviewTableConfigTool(databases, new DynamoPreviewStore(dynamo, previews), (owner, id) -> Optional.empty(),
                        Clock.systemUTC(), 5, Duration.ofHours(1)));
    }

    @Override
    public void close() {
        databases.close();
    }
}
