package dev.tablewright.localstack.local;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.profiles.ProfileFile;
import software.amazon.awssdk.profiles.ProfileProperty;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The AWS settings of the shell the local stack runs in, read from its environment map (the process's, or the one a
 * test gives): what the stack hands on to Amazon Bedrock, and to nothing else. DynamoDB Local never sees them (its
 * clients sign with the stack's own credentials: {@code DynamoDbClients}); Lambda Invoke and Secrets Manager are not
 * called locally (tools run in-process, the database and the model are the stack's own).
 *
 * <p>Read as the SDK's default chain reads them, from the map instead of the process: access keys (with a session
 * token when there is one), else the profile ({@code AWS_PROFILE}, default {@code default}) of the credentials and
 * config files ({@code AWS_SHARED_CREDENTIALS_FILE}, {@code AWS_CONFIG_FILE}, default {@code ~/.aws/}), else the rest
 * of the default chain (container or instance credentials). The region: {@code AWS_REGION}, {@code
 * AWS_DEFAULT_REGION}, the profile's {@code region}, else {@code us-east-1}.
 */
public record ShellAws(Map<String, String> environment) {

    /** The shell's AWS settings the in-process functions see, exactly as the shell has them (unset when it has none). */
    public static final List<String> VARIABLES = List.of("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
            "AWS_PROFILE", "AWS_SHARED_CREDENTIALS_FILE", "AWS_CONFIG_FILE", "AWS_REGION", "AWS_DEFAULT_REGION");

    static final String DEFAULT_REGION = "us-east-1";

    public ShellAws {
        environment = Map.copyOf(environment);
    }

    /** The credentials Bedrock requests are signed with. */
    public AwsCredentialsProvider credentials() {
        String keyId = value("AWS_ACCESS_KEY_ID");
        String secret = value("AWS_SECRET_ACCESS_KEY");
        if (keyId != null && secret != null) {
            String token = value("AWS_SESSION_TOKEN");
            return StaticCredentialsProvider.create(token != null ? AwsSessionCredentials.create(keyId, secret, token)
                    : AwsBasicCredentials.create(keyId, secret));
        }
        ProfileFile files = profileFile();
        if (value("AWS_PROFILE") != null || files.profile(profileName()).isPresent()) {
            return ProfileCredentialsProvider.builder().profileFile(files).profileName(profileName()).build();
        }
        return DefaultCredentialsProvider.builder().build();
    }

    /** The region Bedrock requests are signed for (and the functions' {@code AWS_REGION}). */
    public String region() {
        String region = value("AWS_REGION");
        if (region == null) {
            region = value("AWS_DEFAULT_REGION");
        }
        if (region == null) {
            region = profileFile().profile(profileName()).flatMap(p -> p.property(ProfileProperty.REGION))
                    .filter(r -> !r.isBlank()).orElse(DEFAULT_REGION);
        }
        return region.strip();
    }

    private String profileName() {
        String name = value("AWS_PROFILE");
        return name != null ? name : "default";
    }

    /** The credentials file, then the config file: where both name a property, the first one's wins, as in the SDK. */
    private ProfileFile profileFile() {
        ProfileFile.Aggregator files = ProfileFile.aggregator();
        Path credentials = file("AWS_SHARED_CREDENTIALS_FILE", "credentials");
        if (Files.isRegularFile(credentials)) {
            files.addFile(ProfileFile.builder().content(credentials).type(ProfileFile.Type.CREDENTIALS).build());
        }
        Path config = file("AWS_CONFIG_FILE", "config");
        if (Files.isRegularFile(config)) {
            files.addFile(ProfileFile.builder().content(config).type(ProfileFile.Type.CONFIGURATION).build());
        }
        return files.build();
    }

    private Path file(String variable, String defaultName) {
        String home = System.getProperty("user.home");
        String given = value(variable);
        if (given == null) {
            return Path.of(home, ".aws", defaultName);
        }
        return given.startsWith("~/") ? Path.of(home, given.substring(2)) : Path.of(given);
    }

    private String value(String name) {
        String v = environment.get(name);
        return v == null || v.isBlank() ? null : v.strip();
    }
}
