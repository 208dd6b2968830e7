package dev.tablewright.fakes.dynamodb;

import com.amazonaws.services.dynamodbv2.local.main.ServerRunner;
import com.amazonaws.services.dynamodbv2.local.server.DynamoDBProxyServer;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.profiles.ProfileFile;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * DynamoDB Local ({@code com.amazonaws:DynamoDBLocal}) started in this JVM, in memory, on a free loopback port: the
 * real DynamoDB HTTP API with no Docker. The tests, the benchmarks and the local stack use it.
 *
 * <p>Always with {@code -sharedDb}: one database whatever access key and region a request is signed with. Without
 * it DynamoDB Local keeps a database per key and region, and a client that picked up a shell's AWS credentials would
 * find none of the tables (the functions' clients sign local calls with fixed credentials anyway: DynamoDbClients).
 *
 * <p>DynamoDB Local stores through SQLite via sqlite4java, which needs its native library. Maven Central has it as
 * separate artifacts ({@code libsqlite4java-linux-amd64:so} etc., dependencies of DynamoDBLocal); the test-support build
 * copies them to {@code infra/test-support/target/native-libs}. Before starting, {@link #nativeLibraryDirectory()} settles
 * {@code sqlite4java.library.path}, first match wins:
 * <ol>
 *   <li>the system property, if it names a folder that holds the library for this platform;</li>
 *   <li>{@code target/native-libs} or {@code infra/test-support/target/native-libs} from the working directory upwards;</li>
 *   <li>the artifact in the local Maven repository, copied to a temporary folder.</li>
 * </ol>
 */
public final class DynamoDbLocalLauncher implements AutoCloseable {

    /** What {@link #clientFor} signs with: the same as the functions' clients of a local endpoint (DynamoDbClients). */
    public static final String LOCAL_ACCESS_KEY_ID = "local";
    public static final Region LOCAL_REGION = Region.US_EAST_1;

    private static DynamoDbLocalLauncher shared;

    private final DynamoDBProxyServer server;
    private final URI endpoint;
    private volatile boolean stopped;

    private DynamoDbLocalLauncher(DynamoDBProxyServer server, int port) {
        this.server = server;
        this.endpoint = URI.create("http://127.0.0.1:" + port);
    }

    /** One instance for the whole JVM (tests share it; each suite uses its own table names), stopped at exit. */
    public static synchronized DynamoDbLocalLauncher shared() {
        if (shared == null) {
            shared = start();
            DynamoDbLocalLauncher s = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(s::close, "dynamodb-local-stop"));
        }
        return shared;
    }

    /** Starts a new in-memory instance on a free port. */
    public static DynamoDbLocalLauncher start() {
        Exception last = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                return start(freePort());
            } catch (IllegalStateException e) {
                last = e; // most likely the port was taken between probing and binding: try another
            }
        }
        throw new IllegalStateException("DynamoDB Local did not start", last);
    }

    /** Starts a new in-memory instance on {@code port}. */
    public static DynamoDbLocalLauncher start(int port) {
        System.setProperty("sqlite4java.library.path", nativeLibraryDirectory().toString());
        try {
            DynamoDBProxyServer server = ServerRunner.createServerFromCommandLineArgs(
                    new String[]{"-inMemory", "-sharedDb", "-port", Integer.toString(port), "-disableTelemetry"});
            server.start();
            return new DynamoDbLocalLauncher(server, port);
        } catch (Exception e) {
            throw new IllegalStateException("DynamoDB Local did not start on port " + port, e);
        }
    }

    /**
     * DynamoDB Local as a server of its own, until the process is stopped: {@code infra/bin/dynamodb-local [port]}
     * (default 8000). {@code .ci/run} starts one for the LocalStack suites ({@code LOCALSTACK_ENDPOINT}).
     */
    public static void main(String[] args) throws InterruptedException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8000;
        DynamoDbLocalLauncher server = port == 0 ? start() : start(port); // 0: any free port (the line below names it)
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "dynamodb-local-stop"));
        System.out.println("DynamoDB Local (in memory) on " + server.endpoint());
        new java.util.concurrent.CountDownLatch(1).await();
    }

    public URI endpoint() {
        return endpoint;
    }

    /** A client for this instance (see {@link #clientFor}). */
    public DynamoDbClient client() {
        return clientFor(endpoint);
    }

    /**
     * A plain client for a local endpoint (DynamoDB Local, LocalStack), for the tests' own reads and table set-up.
     * The functions build theirs with {@code DynamoDbClients} from {@code DYNAMODB_ENDPOINT}; the fakes do not
     * depend on that adapter, so that its own tests can run on them.
     */
    public static DynamoDbClient clientFor(URI endpoint) {
        return clientFor(endpoint, o -> { });
    }

    /** {@link #clientFor(URI)} with more overrides (a benchmark's interceptor counting the calls, say). */
    public static DynamoDbClient clientFor(URI endpoint, java.util.function.Consumer<ClientOverrideConfiguration.Builder> overrides) {
        return DynamoDbClient.builder()
                .endpointOverride(endpoint)
                .region(LOCAL_REGION)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(LOCAL_ACCESS_KEY_ID, "local")))
                // nothing of the shell's AWS settings: no profile file (its region, use_fips_endpoint, ...), and FIPS
                // or dual-stack switched off explicitly (either refuses a custom endpoint)
                .overrideConfiguration(o -> overrides.accept(o.defaultProfileFile(ProfileFile.aggregator().build()).defaultProfileName("default")))
                .fipsEnabled(false)
                .dualstackEnabled(false)
                .httpClient(UrlConnectionHttpClient.builder().build())
                .build();
    }

    @Override
    public void close() {
        if (stopped) {
            return;
        }
        stopped = true;
        try {
            server.stop();
        } catch (Exception e) {
            // stopping at exit: nothing left to do
        }
    }

    /** The folder holding sqlite4java's native library for this platform (see the class comment). */
    public static Path nativeLibraryDirectory() {
        String library = nativeLibraryPrefix();
        String configured = System.getProperty("sqlite4java.library.path");
        if (configured != null && holds(Path.of(configured), library)) {
            return Path.of(configured);
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            for (Path candidate : List.of(dir.resolve("target/native-libs"), dir.resolve("infra/test-support/target/native-libs"))) {
                if (holds(candidate, library)) {
                    return candidate;
                }
            }
        }
        return fromLocalMavenRepository(library).orElseThrow(() -> new IllegalStateException(
                "sqlite4java native library '" + library + "*' not found: run `mvn -pl infra/test-support -am generate-resources` "
                        + "(copies it to infra/test-support/target/native-libs) or set -Dsqlite4java.library.path"));
    }

    /** e.g. {@code libsqlite4java-linux-amd64}: the artifact id of the native library for this OS and CPU. */
    static String nativeLibraryPrefix() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        if (os.contains("mac")) {
            return "libsqlite4java-osx";
        }
        if (os.contains("win")) {
            return "sqlite4java-win32-" + (arch.contains("64") ? "x64" : "x86");
        }
        return "libsqlite4java-linux-" + (arch.equals("amd64") || arch.equals("x86_64") ? "amd64" : arch.equals("aarch64") ? "aarch64" : "i386");
    }

    private static boolean holds(Path dir, String prefix) {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.anyMatch(f -> f.getFileName().toString().startsWith(prefix));
        } catch (IOException e) {
            return false;
        }
    }

    private static Optional<Path> fromLocalMavenRepository(String artifactId) {
        String repo = System.getProperty("maven.repo.local", System.getProperty("user.home") + "/.m2/repository");
        Path versions = Path.of(repo, "com", "almworks", "sqlite4java", artifactId);
        if (!Files.isDirectory(versions)) {
            return Optional.empty();
        }
        List<Path> libraries = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(versions, 2)) {
            walk.filter(f -> f.getFileName().toString().matches(artifactId + "-[0-9.]+\\.(so|dll|dylib)")).forEach(libraries::add);
        } catch (IOException e) {
            return Optional.empty();
        }
        if (libraries.isEmpty()) {
            return Optional.empty();
        }
        libraries.sort(null);
        Path newest = libraries.getLast();
        try {
            Path dir = Files.createTempDirectory("sqlite4java");
            Files.copy(newest, dir.resolve(newest.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            dir.toFile().deleteOnExit();
            dir.resolve(newest.getFileName()).toFile().deleteOnExit();
            return Optional.of(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
