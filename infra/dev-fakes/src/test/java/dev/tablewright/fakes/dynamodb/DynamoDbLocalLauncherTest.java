package dev.tablewright.fakes.dynamodb;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** DynamoDB Local runs with one database for every access key and region (-sharedDb). */
class DynamoDbLocalLauncherTest {

    @Test
    void aClientSignedWithAnotherKeyInAnotherRegionSeesTheSameTables() {
        DynamoDbLocalLauncher dynamo = DynamoDbLocalLauncher.shared();
        String prefix = "shared-db-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        String table = TemplateTables.fromTemplate().createAll(dynamo.client(), prefix).tableName("ConfigsTable");
        try (DynamoDbClient shell = DynamoDbClient.builder().endpointOverride(dynamo.endpoint()).region(Region.EU_WEST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsSessionCredentials.create("ASIASHELLKEY00000001", "shell-secret", "shell-token")))
                .httpClient(UrlConnectionHttpClient.create()).build()) {
            assertTrue(shell.listTables().tableNames().contains(table), "tables created as local/us-east-1, listed as another key in eu-west-1");
        }
    }
}
