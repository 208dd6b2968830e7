package dev.tablewright.fakes.dynamodb;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DynamoDB Local runs with one database for every access key and region (-sharedDb), and the launcher's own client
 * (the local stack's table set-up, the tests' engines) takes nothing from the shell's AWS settings.
 */
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

    /** The SDK reads these system properties before the environment: a shell's profile with use_fips_endpoint, say. */
    @Test
    void theLaunchersClientIgnoresTheShellsProfileRegionAndEndpointSwitches(@TempDir Path dir) throws Exception {
        Path config = Files.writeString(dir.resolve("config"), "[profile dev]\nregion = ap-northeast-1\nuse_fips_endpoint = true\n");
        Map<String, String> shell = Map.of("aws.profile", "dev", "aws.configFile", config.toString(), "aws.region", "sa-east-1",
                "aws.useDualstackEndpoint", "true", "aws.accessKeyId", "AKIASHELLKEY00000002", "aws.secretAccessKey", "shell");
        Map<String, String> before = new HashMap<>();
        shell.forEach((k, v) -> before.put(k, System.setProperty(k, v)));
        try (DynamoDbClient client = DynamoDbLocalLauncher.clientFor(DynamoDbLocalLauncher.shared().endpoint())) {
            String prefix = "shell-props-" + UUID.randomUUID().toString().substring(0, 8) + "-";
            String table = TemplateTables.fromTemplate().createAll(client, prefix).tableName("ConfigsTable");
            assertTrue(DynamoDbLocalLauncher.shared().client().listTables().tableNames().contains(table));
        } finally {
            before.forEach((k, v) -> {
                if (v == null) {
                    System.clearProperty(k);
                } else {
                    System.setProperty(k, v);
                }
            });
        }
    }
}
