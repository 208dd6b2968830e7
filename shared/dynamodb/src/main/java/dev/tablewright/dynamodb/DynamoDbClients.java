package dev.tablewright.dynamodb;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.EnvironmentVariableCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.profiles.ProfileFile;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * Builds the one {@link DynamoDbClient} a function holds, at init (a static or constructor field), never per request.
 *
 * <p>HTTP client: {@code url-connection-client} (the JDK's HttpURLConnection): no extra threads or pools to start,
 * the fewest classes to load, which is what a Lambda cold start pays for (docs/performance.md). Retries stay the
 * SDK's defaults for DynamoDB (throttling and 5xx are retried with backoff); only what is left after them reaches
 * {@link DynamoDbFaults}.
 *
 * <p>Environment: {@code AWS_REGION} (set by Lambda) picks the region, {@code us-east-1} when absent, and the role's
 * credentials come from the environment. {@code DYNAMODB_ENDPOINT} points the client at a local engine (DynamoDB
 * Local, LocalStack; it is never set in AWS): then the client signs with the local stack's own fixed credentials and
 * region ({@link #LOCAL_ACCESS_KEY_ID}, {@link #LOCAL_REGION}) whatever AWS settings the shell carries (keys, a session
 * token, {@code AWS_PROFILE}, another region, FIPS or dual-stack switches), so every local client reaches the same
 * tables: LocalStack keeps tables per account and region, and so does DynamoDB Local unless started with
 * {@code -sharedDb}.
 */
public final class DynamoDbClients {

    public static final String ENDPOINT_ENV = "DYNAMODB_ENDPOINT";
    /** The credentials and region of every client of a local endpoint (the fakes' DynamoDbLocalLauncher uses the same). */
    public static final String LOCAL_ACCESS_KEY_ID = "local";
    public static final String LOCAL_SECRET_ACCESS_KEY = "local";
    public static final Region LOCAL_REGION = Region.US_EAST_1;

    private DynamoDbClients() {
    }

    /** The client for a function's environment, read where the function is wired. */
    public static DynamoDbClient fromEnvironment(Map<String, String> env) {
        String endpoint = env.get(ENDPOINT_ENV);
        registerPriming(env);
        return build(endpoint == null || endpoint.isBlank() ? null : URI.create(endpoint), env, Settings.DEFAULT);
    }

    private static final java.util.concurrent.atomic.AtomicBoolean PRIMING_REGISTERED = new java.util.concurrent.atomic.AtomicBoolean();

    /** SnapStart: a function that talks to DynamoDB primes the request path once (see {@link LoopbackDynamoDbPriming}). */
    private static void registerPriming(Map<String, String> env) {
        if (PRIMING_REGISTERED.compareAndSet(false, true)) {
            Map<String, String> copy = Map.copyOf(env);
            dev.tablewright.lambda.Priming.register("dynamodb", () -> LoopbackDynamoDbPriming.run(copy));
        }
    }

    /** A client for an explicit endpoint (tests, local stack, benchmarks). */
    public static DynamoDbClient forEndpoint(URI endpoint, Settings settings) {
        return build(endpoint, System.getenv(), settings);
    }

    /**
     * Timeouts and the retry budget. {@code maxAttempts} null keeps the SDK's default retry strategy for DynamoDB.
     */
    public record Settings(Duration connectTimeout, Duration socketTimeout, Duration apiCallTimeout, Integer maxAttempts) {
        public static final Settings DEFAULT = new Settings(Duration.ofSeconds(2), Duration.ofSeconds(5), Duration.ofSeconds(20), null);
    }

    static DynamoDbClient build(URI endpoint, Map<String, String> env, Settings settings) {
        ClientOverrideConfiguration.Builder overrides = ClientOverrideConfiguration.builder()
                .apiCallTimeout(settings.apiCallTimeout());
        if (settings.maxAttempts() != null) {
            overrides.retryStrategy(b -> b.maxAttempts(settings.maxAttempts()));
        }
        if (endpoint != null) {
            // no profile file: a shell's AWS_PROFILE (its region, use_fips_endpoint, ...) does not reach a local engine
            overrides.defaultProfileFile(ProfileFile.aggregator().build()).defaultProfileName("default");
        }
        var builder = DynamoDbClient.builder()
                .httpClient(UrlConnectionHttpClient.builder()
                        .connectionTimeout(settings.connectTimeout())
                        .socketTimeout(settings.socketTimeout())
                        .build())
                .overrideConfiguration(overrides.build())
                // off explicitly: otherwise the SDK asks system properties, the environment and the profile file
                .endpointDiscoveryEnabled(false);
        if (endpoint != null) {
            builder.endpointOverride(endpoint)
                    .region(LOCAL_REGION)
                    .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(LOCAL_ACCESS_KEY_ID, LOCAL_SECRET_ACCESS_KEY)))
                    // a shell's AWS_USE_FIPS_ENDPOINT or AWS_USE_DUALSTACK_ENDPOINT would refuse a custom endpoint
                    .fipsEnabled(false)
                    .dualstackEnabled(false);
        } else {
            builder.region(Region.of(env.getOrDefault("AWS_REGION", env.getOrDefault("AWS_DEFAULT_REGION", "us-east-1"))))
                    .credentialsProvider(credentials(env));
        }
        return builder.build();
    }

    private static AwsCredentialsProvider credentials(Map<String, String> env) {
        if (env.containsKey("AWS_ACCESS_KEY_ID") && env.containsKey("AWS_SECRET_ACCESS_KEY")) {
            // In Lambda the role's credentials are in the environment: skip the default chain's probing.
            return EnvironmentVariableCredentialsProvider.create();
        }
        return DefaultCredentialsProvider.create();
    }
}
