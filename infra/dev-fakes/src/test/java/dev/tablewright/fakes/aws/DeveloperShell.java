package dev.tablewright.fakes.aws;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The AWS settings of a developer's shell, for starting the local stack or the Bedrock suites the way someone who
 * works on AWS runs them: the variables as a map (a test hands it on; the JVM's own environment is left alone), and
 * what a request signed with them must show (key id, session token, region). The keys are made up; nothing here
 * reaches AWS.
 *
 * @param name         what the shell is, for messages
 * @param environment  its AWS variables
 * @param sessionToken null for long-term keys
 * @param region       the region its requests are signed for (never the local tables' us-east-1)
 */
public record DeveloperShell(String name, Map<String, String> environment, String accessKeyId, String secretAccessKey,
                             String sessionToken, String region) {

    private static final AtomicInteger NEXT = new AtomicInteger();

    /** Temporary credentials in the environment, as {@code aws configure export-credentials} or an SSO login leaves them. */
    public static DeveloperShell sessionKeys() {
        return new DeveloperShell("access keys with a session token, AWS_REGION=eu-west-1",
                Map.of("AWS_ACCESS_KEY_ID", "ASIAEXAMPLESHELL0001", "AWS_SECRET_ACCESS_KEY", "shell-secret-not-a-real-one",
                        "AWS_SESSION_TOKEN", "shell-session-token-not-a-real-one", "AWS_REGION", "eu-west-1",
                        "AWS_DEFAULT_REGION", "ap-southeast-2"),
                "ASIAEXAMPLESHELL0001", "shell-secret-not-a-real-one", "shell-session-token-not-a-real-one", "eu-west-1");
    }

    /** Long-term keys, the region only in AWS_DEFAULT_REGION. */
    public static DeveloperShell accessKeys() {
        return new DeveloperShell("access keys, AWS_DEFAULT_REGION=ap-southeast-2",
                Map.of("AWS_ACCESS_KEY_ID", "AKIAEXAMPLESHELL0002", "AWS_SECRET_ACCESS_KEY", "shell-secret-2-not-a-real-one",
                        "AWS_DEFAULT_REGION", "ap-southeast-2"),
                "AKIAEXAMPLESHELL0002", "shell-secret-2-not-a-real-one", null, "ap-southeast-2");
    }

    /**
     * {@code AWS_PROFILE} naming a profile of a credentials file (temporary credentials) and a config file (its region),
     * both written to a temporary folder deleted at exit.
     */
    public static DeveloperShell profile() {
        try {
            Path dir = Files.createTempDirectory("aws-shell");
            Path credentials = Files.writeString(dir.resolve("credentials"), """
                    [default]
                    aws_access_key_id = AKIANOTTHEPROFILE000
                    aws_secret_access_key = not-the-profile
                    [tablewright-dev]
                    aws_access_key_id = ASIAEXAMPLEPROFILE03
                    aws_secret_access_key = profile-secret-not-a-real-one
                    aws_session_token = profile-session-token-not-a-real-one
                    """);
            Path config = Files.writeString(dir.resolve("config"), """
                    [default]
                    region = us-west-2
                    [profile tablewright-dev]
                    region = eu-central-1
                    """);
            List.of(credentials, config, dir).forEach(p -> p.toFile().deleteOnExit());
            return new DeveloperShell("AWS_PROFILE=tablewright-dev from a credentials file, its region eu-central-1",
                    Map.of("AWS_PROFILE", "tablewright-dev", "AWS_SHARED_CREDENTIALS_FILE", credentials.toString(),
                            "AWS_CONFIG_FILE", config.toString()),
                    "ASIAEXAMPLEPROFILE03", "profile-secret-not-a-real-one", "profile-session-token-not-a-real-one", "eu-central-1");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The three shells in turn, call by call: a suite that asks once per test runs in each of them. */
    public static DeveloperShell next() {
        return switch (NEXT.getAndIncrement() % 3) {
            case 0 -> sessionKeys();
            case 1 -> profile();
            default -> accessKeys();
        };
    }

    /** What the {@code Credential=} of a SigV4 Authorization header signed with this shell starts and ends with. */
    public boolean scopes(String authorization) {
        return authorization != null && authorization.matches("AWS4-HMAC-SHA256 Credential=" + accessKeyId + "/\\d{8}/" + region
                + "/bedrock/aws4_request,.*");
    }
}
