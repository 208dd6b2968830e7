package dev.tablewright.eval;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;
import dev.tablewright.localstack.chat.ChatClient;
import dev.tablewright.localstack.local.LocalDatabase;
import dev.tablewright.localstack.local.LocalDeployment;
import dev.tablewright.localstack.local.LocalModel;
import dev.tablewright.postgres.DatabaseUrl;
import dev.tablewright.postgres.PostgresDatabases;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The deployment a group of tasks runs on: the local stack started in this JVM ({@link LocalDeployment}, every
 * function in-process, DynamoDB Local, PostgreSQL with the sample database, the model as the local stack picks it from
 * the environment), reached only as a client reaches it (its HTTP API and its chat function URL), and the databases
 * its data sources are, for grading.
 *
 * <p>{@link DataSources#ONE}: the sample database as the one data source ({@code DATABASE_URL}, else what the local
 * stack finds). {@link DataSources#TWO}: {@code production} (the same sample database) and {@code staging}
 * ({@link StagingDatabase}: a copy with {@code sales.returns}), so the database tools ask which one. A JVM runs one
 * at a time: the functions read their settings from the process-wide {@code Env}.
 */
public final class EvalStack implements AutoCloseable {

    /** The data sources of the deployment with two, in the order {@code DATA_SOURCES} names them. */
    public static final List<String> TWO_SOURCES = List.of("production", "staging");

    public enum DataSources { ONE, TWO }

    /** Which model answered, as the report records it (no key, no URL: nothing that could hold a secret). */
    public record ModelInfo(String kind, String provider, String name, String label) {
    }

    private final LocalDeployment deployment;
    private final LocalDatabase ownDatabase;
    private final Map<String, GradingDatabase> databases;
    private final DataSources sources;
    private final Duration turnTimeout;

    private EvalStack(LocalDeployment deployment, LocalDatabase ownDatabase, Map<String, GradingDatabase> databases,
                      DataSources sources, Duration turnTimeout) {
        this.deployment = deployment;
        this.ownDatabase = ownDatabase;
        this.databases = databases;
        this.sources = sources;
        this.turnTimeout = turnTimeout;
    }

    /**
     * Starts the deployment. {@code environment} is read as the local stack reads it (the model, {@code DATABASE_URL},
     * {@code DATABASE_SCHEMAS}, {@code TURN_MAX_*} ...), except {@code DATA_SOURCES}: the data sources are the sample's.
     *
     * @param out where the local stack's start-up lines go
     */
    public static EvalStack start(Map<String, String> environment, DataSources sources, PrintStream out, Duration turnTimeout)
            throws Exception {
        Map<String, String> env = new HashMap<>(environment);
        env.remove("DATA_SOURCES");
        env.putIfAbsent("LOG_LEVEL", "WARN");
        List<String> schemas = schemas(env.get("DATABASE_SCHEMAS"));
        LocalDatabase own = null;
        Map<String, DatabaseUrl> urls = new LinkedHashMap<>();
        try {
            if (sources == DataSources.TWO) {
                own = LocalDatabase.resolve(env.get("DATABASE_URL"));
                DatabaseUrl production = own.url();
                DatabaseUrl staging = StagingDatabase.prepare(production);
                urls.put(TWO_SOURCES.get(0), production);
                urls.put(TWO_SOURCES.get(1), staging);
                ObjectNode json = Json.object();
                urls.forEach((name, url) -> json.putObject(name).put("url", url.jdbcUrlWithCredentials()));
                env.put("DATABASE_URL", production.jdbcUrlWithCredentials());
                env.put("DATA_SOURCES", Json.write(json));
            }
            LocalDeployment deployment = LocalDeployment.start(new LocalDeployment.Settings(0, env, out));
            if (sources == DataSources.ONE) {
                urls.put(PostgresDatabases.DEFAULT_NAME, deployment.database().url());
            }
            Map<String, GradingDatabase> grading = new LinkedHashMap<>();
            urls.forEach((name, url) -> grading.put(name, new GradingDatabase(name, url, schemas)));
            return new EvalStack(deployment, own, grading, sources, turnTimeout);
        } catch (Exception | Error e) {
            if (own != null) {
                own.close();
            }
            throw e;
        }
    }

    static List<String> schemas(String list) {
        if (list == null || list.isBlank()) {
            return PostgresDatabases.DEFAULT_SCHEMAS;
        }
        return Arrays.stream(list.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    public DataSources sources() {
        return sources;
    }

    /** The database a task's rows are read from: its {@code database}, else the one data source. */
    public GradingDatabase database(EvalTask task) {
        String name = task.database() != null ? task.database() : databases.keySet().iterator().next();
        GradingDatabase db = databases.get(name);
        if (db == null) {
            throw new IllegalArgumentException("this deployment has no data source " + name + " (it has " + databases.keySet() + ")");
        }
        return db;
    }

    public ModelInfo model() {
        LocalModel model = deployment.model();
        boolean bedrock = model.bedrockSettings() != null;
        String name = bedrock ? model.bedrockSettings().modelId() : model.settings().model();
        return new ModelInfo(model.kind().wireName(), bedrock ? "bedrock" : "openai", name, model.label());
    }

    public boolean offlineDemo() {
        return deployment.model().kind() == LocalModel.Kind.OFFLINE_DEMO;
    }

    /** A client of this deployment as {@code user}, with a token of its development issuer: each run is a user of its own. */
    public ChatClient clientFor(String user) {
        return new ChatClient(deployment.url(), deployment.chatUrl(), deployment.issuer().mint(user), turnTimeout);
    }

    @Override
    public void close() {
        List<AutoCloseable> all = new ArrayList<>(databases.values());
        all.add(deployment);
        if (ownDatabase != null) {
            all.add(ownDatabase);
        }
        for (AutoCloseable c : all) {
            try {
                c.close();
            } catch (Exception e) {
                // keep closing the rest
            }
        }
    }
}
