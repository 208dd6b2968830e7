package dev.tablewright.dynamodb;

import dev.tablewright.fakes.dynamodb.DynamoDbLocalLauncher;
import dev.tablewright.fakes.dynamodb.TemplateTables;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A function's client of a local endpoint reaches the tables the local stack created, whatever AWS settings the
 * developer's shell carries: it signs with the local stack's own credentials and region, and no profile, FIPS or
 * dual-stack switch of the shell applies to it. The shell is given two ways: as the function's environment map, and
 * as the SDK's own system properties (which it reads before the process environment).
 */
class LocalEndpointCredentialsTest {

    static DynamoDbLocalLauncher dynamo;
    static String configsTable;

    @BeforeAll
    static void tables() {
        dynamo = DynamoDbLocalLauncher.shared();
        configsTable = TemplateTables.fromTemplate().createAll(dynamo.client(), "shell-" + UUID.randomUUID().toString().substring(0, 8) + "-")
                .tableName("ConfigsTable");
    }

    Map<String, String> local(Map<String, String> shell) {
        Map<String, String> env = new LinkedHashMap<>(shell);
        env.put(DynamoDbClients.ENDPOINT_ENV, dynamo.endpoint().toString());
        return env;
    }

    void assertSeesTheTables(Map<String, String> env) {
        try (DynamoDbClient client = DynamoDbClients.fromEnvironment(env)) {
            assertEquals(configsTable, client.describeTable(b -> b.tableName(configsTable)).table().tableName());
        }
    }

    @Test
    void accessKeysWithASessionTokenInAnotherRegion() {
        assertSeesTheTables(local(Map.of("AWS_ACCESS_KEY_ID", "ASIAEXAMPLESHELLKEY1", "AWS_SECRET_ACCESS_KEY", "shell-secret",
                "AWS_SESSION_TOKEN", "shell-session-token", "AWS_REGION", "eu-west-1", "AWS_DEFAULT_REGION", "ap-southeast-2")));
    }

    @Test
    void aProfileFromACredentialsFile(@TempDir Path dir) throws Exception {
        Path credentials = Files.writeString(dir.resolve("credentials"), "[dev]\naws_access_key_id = AKIAPROFILEKEY000001\naws_secret_access_key = profile-secret\n");
        Path config = Files.writeString(dir.resolve("config"), "[profile dev]\nregion = eu-central-1\nuse_fips_endpoint = true\n");
        Map<String, String> shell = Map.of("AWS_PROFILE", "dev", "AWS_SHARED_CREDENTIALS_FILE", credentials.toString(),
                "AWS_CONFIG_FILE", config.toString());
        assertSeesTheTables(local(shell));
        withSystemProperties(Map.of("aws.profile", "dev", "aws.sharedCredentialsFile", credentials.toString(),
                "aws.configFile", config.toString()), () -> assertSeesTheTables(local(shell)));
    }

    /** What the SDK reads from the process itself (system properties first, then the environment) cannot reach the client. */
    @Test
    void theSdksOwnSettingsOfTheProcess() {
        withSystemProperties(Map.of("aws.accessKeyId", "AKIAPROCESSKEY000001", "aws.secretAccessKey", "process-secret",
                "aws.sessionToken", "process-token", "aws.region", "sa-east-1", "aws.useFipsEndpoint", "true",
                "aws.useDualstackEndpoint", "true"), () -> assertSeesTheTables(local(Map.of())));
    }

    static void withSystemProperties(Map<String, String> properties, Runnable run) {
        Map<String, String> before = new HashMap<>();
        properties.forEach((name, value) -> {
            before.put(name, System.getProperty(name));
            System.setProperty(name, value);
        });
        try {
            run.run();
        } finally {
            before.forEach((name, value) -> {
                if (value == null) {
                    System.clearProperty(name);
                } else {
                    System.setProperty(name, value);
                }
            });
        }
    }
}
