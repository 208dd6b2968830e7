package dev.tablewright.fakes.dynamodb;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.localstack.LocalStackContainer;
import org.testcontainers.utility.DockerImageName;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.net.URI;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The DynamoDB engine an integration suite runs against, as a JUnit 5 extension. One suite, two engines: write the
 * tests once in an abstract class that asks for {@code engine()}, and subclass it once per engine:
 *
 * <pre>{@code
 * class UserInputApiOnDynamoDbLocalTest extends UserInputApiSuite {
 *     @RegisterExtension static final DynamoDbEngine ENGINE = DynamoDbEngine.dynamoDbLocal();
 *     @Override DynamoDbEngine engine() { return ENGINE; }
 * }
 * }</pre>
 *
 * <ul>
 *   <li>{@link #dynamoDbLocal()}: DynamoDB Local in this JVM; runs everywhere.</li>
 *   <li>{@link #localStack()}: an endpoint that is already running when {@code LOCALSTACK_ENDPOINT} (or
 *       {@code -Dlocalstack.endpoint}) names one: LocalStack, or DynamoDB Local as a server, as {@code .ci/run} starts
 *       it; else LocalStack through Testcontainers where Docker runs; else the class is <em>skipped</em> with the
 *       reason, unless {@code LOCALSTACK_REQUIRED=true} (CI), where it fails instead.</li>
 * </ul>
 * Before the class runs, the template's tables are created with a prefix unique to the class, so suites sharing
 * an engine never see each other's items.
 */
public final class DynamoDbEngine implements BeforeAllCallback, ExecutionCondition {

    /** The variable the DynamoDB adapter reads its endpoint from ({@code DynamoDbClients.ENDPOINT_ENV}; shared/dynamodb's tests check they agree). */
    public static final String ENDPOINT_VARIABLE = "DYNAMODB_ENDPOINT";

    /** The LocalStack image the suites pin (override with -Dlocalstack.image=...). */
    public static final String LOCALSTACK_IMAGE = System.getProperty("localstack.image", "localstack/localstack:3.8");

    private static final AtomicInteger SUITES = new AtomicInteger();
    private static LocalStackContainer localStack;

    private final String name;
    private URI endpoint;
    private DynamoDbClient client;
    private TemplateTables.Created tables;

    private DynamoDbEngine(String name) {
        this.name = name;
    }

    public static DynamoDbEngine dynamoDbLocal() {
        return new DynamoDbEngine("dynamodb-local");
    }

    public static DynamoDbEngine localStack() {
        return new DynamoDbEngine("localstack");
    }

    /** An endpoint that is already running (LocalStack, or any DynamoDB-compatible server): env or system property. */
    static String givenEndpoint() {
        String fromProperty = System.getProperty("localstack.endpoint");
        String value = fromProperty != null && !fromProperty.isBlank() ? fromProperty : System.getenv("LOCALSTACK_ENDPOINT");
        return value == null || value.isBlank() ? null : value.strip();
    }

    /** CI sets LOCALSTACK_REQUIRED=true: there the LocalStack suites must run, never skip. */
    static boolean required() {
        return Boolean.parseBoolean(System.getProperty("localstack.required", System.getenv().getOrDefault("LOCALSTACK_REQUIRED", "false")));
    }

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (name.equals("localstack") && givenEndpoint() == null && !dockerAvailable()) {
            if (required()) {
                // not disabled: beforeAll fails the suite with the reason
                return ConditionEvaluationResult.enabled("LocalStack required");
            }
            return ConditionEvaluationResult.disabled("Docker is not available and LOCALSTACK_ENDPOINT is not set: "
                    + "the LocalStack run of this suite is skipped");
        }
        return ConditionEvaluationResult.enabled(name);
    }

    private static volatile Boolean docker;

    private static boolean dockerAvailable() {
        if (docker == null) {
            boolean available;
            try {
                available = DockerClientFactory.instance().isDockerAvailable();
            } catch (RuntimeException | LinkageError e) {
                available = false;
            }
            docker = available;
        }
        return docker;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        endpoint = switch (name) {
            case "dynamodb-local" -> DynamoDbLocalLauncher.shared().endpoint();
            default -> localStackEndpoint();
        };
        client = DynamoDbLocalLauncher.clientFor(endpoint);
        String prefix = context.getRequiredTestClass().getSimpleName() + "-" + SUITES.incrementAndGet() + "-";
        tables = TemplateTables.fromTemplate().createAll(client, prefix);
    }

    private static synchronized URI localStackEndpoint() {
        String given = givenEndpoint();
        if (given != null) {
            return URI.create(given);
        }
        if (required() && !dockerAvailable()) {
            throw new IllegalStateException("LOCALSTACK_REQUIRED is set but there is no LOCALSTACK_ENDPOINT and no Docker: "
                    + "start LocalStack or DynamoDB Local (infra/bin/dynamodb-local) and set LOCALSTACK_ENDPOINT");
        }
        Assumptions.assumeTrue(dockerAvailable(), "Docker is not available: the LocalStack run of this suite is skipped");
        if (localStack == null) {
            localStack = new LocalStackContainer(DockerImageName.parse(LOCALSTACK_IMAGE))
                    .withServices(LocalStackContainer.Service.DYNAMODB);
            localStack.start();
        }
        return localStack.getEndpoint();
    }

    public String name() {
        return name;
    }

    public URI endpoint() {
        return endpoint;
    }

    public DynamoDbClient client() {
        return client;
    }

    public TemplateTables.Created tables() {
        return tables;
    }

    /** The environment a function gets in this engine: table names and DYNAMODB_ENDPOINT. */
    public Map<String, String> environment() {
        Map<String, String> env = new java.util.LinkedHashMap<>(tables.environment());
        env.put(ENDPOINT_VARIABLE, endpoint.toString());
        return env;
    }
}
