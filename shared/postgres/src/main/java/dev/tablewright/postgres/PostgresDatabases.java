package dev.tablewright.postgres;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;
import dev.tablewright.sql.Database;
import dev.tablewright.sql.Databases;

import java.io.IOException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The configured data sources on PostgreSQL. Configuration, from the environment:
 * <ul>
 *   <li>{@code DATA_SOURCES}: JSON naming several, {@code {"production": {"secret": "arn:..."}, "staging": {"url":
 *       "postgres://..."}}}, each optionally with its own {@code "schemas": [...]};</li>
 *   <li>else one data source, {@code default}: {@code DATABASE_SECRET_ARN} (AWS) or {@code DATABASE_URL}
 *       (default {@code jdbc:postgresql://127.0.0.1:5432/test?user=postgres});</li>
 *   <li>{@code DATABASE_SCHEMAS}: the allow-list, comma-separated (default {@link #DEFAULT_SCHEMAS});</li>
 *   <li>{@code PREVIEW_STATEMENT_TIMEOUT_MS}: the preview's statement timeout (default 5000).</li>
 * </ul>
 * Connections are opened on first use and kept (one per data source per instance).
 */
public final class PostgresDatabases implements Databases, AutoCloseable {

    public static final List<String> DEFAULT_SCHEMAS = List.of("core", "inventory", "sales", "analytics");
    public static final String DEFAULT_NAME = "default";

    private final Map<String, DataSourceSetting> settings;
    private final Map<String, ConnectionSource> sources = new LinkedHashMap<>();
    private final Duration statementTimeout;
    private final Duration catalogTtl;
    private final Map<String, Entry> open = new ConcurrentHashMap<>();

    private record Entry(Database database, ReusedConnection connection) {
    }

    public PostgresDatabases(List<DataSourceSetting> settings, Duration statementTimeout, Duration catalogTtl) {
        if (settings.isEmpty()) {
            throw new IllegalArgumentException("no data source configured");
        }
        Map<String, DataSourceSetting> byName = new LinkedHashMap<>();
        settings.forEach(s -> byName.put(s.name(), s));
        this.settings = byName;
        this.statementTimeout = statementTimeout;
        this.catalogTtl = catalogTtl;
        byName.values().forEach(st -> sources.put(st.name(), connectionSource(st)));
    }

    /** Data sources given as connection sources (tests, the local stack), all with the same schema allow-list. */
    public PostgresDatabases(Map<String, ConnectionSource> connectionSources, List<String> schemas,
                             Duration statementTimeout, Duration catalogTtl) {
        Map<String, DataSourceSetting> byName = new LinkedHashMap<>();
        connectionSources.forEach((name, source) -> {
            byName.put(name, new DataSourceSetting(name, "(given)", null, schemas));
            sources.put(name, source);
        });
        if (byName.isEmpty()) {
            throw new IllegalArgumentException("no data source configured");
        }
        this.settings = byName;
        this.statementTimeout = statementTimeout;
        this.catalogTtl = catalogTtl;
    }

    /** From a function's environment, read where the function is wired (the variables of the class comment). */
    public static PostgresDatabases fromEnvironment(Map<String, String> env) {
        String timeout = env.get("PREVIEW_STATEMENT_TIMEOUT_MS");
        return new PostgresDatabases(settingsFrom(env),
                timeout == null ? JdbcSampleRunner.DEFAULT_STATEMENT_TIMEOUT : Duration.ofMillis(Long.parseLong(timeout.trim())),
                JdbcSchemaCatalog.DEFAULT_TTL);
    }

    static List<DataSourceSetting> settingsFrom(Map<String, String> env) {
        List<String> schemas = schemas(env.get("DATABASE_SCHEMAS"));
        String sources = env.get("DATA_SOURCES");
        if (sources != null) {
            return parse(sources, schemas);
        }
        String secret = env.get("DATABASE_SECRET_ARN");
        if (secret != null) {
            return List.of(new DataSourceSetting(DEFAULT_NAME, null, secret, schemas));
        }
        return List.of(new DataSourceSetting(DEFAULT_NAME, env.getOrDefault("DATABASE_URL", DatabaseUrl.DEFAULT), null, schemas));
    }

    static List<DataSourceSetting> parse(String json, List<String> defaultSchemas) {
        JsonNode root;
        try {
            root = Json.parse(json);
        } catch (IOException e) {
            throw new IllegalStateException("DATA_SOURCES is not valid JSON");
        }
        if (!root.isObject() || root.isEmpty()) {
            throw new IllegalStateException("DATA_SOURCES must be a JSON object naming at least one data source");
        }
        List<DataSourceSetting> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode s = e.getValue();
            List<String> schemas = defaultSchemas;
            if (s.path("schemas").isArray()) {
                schemas = new ArrayList<>();
                for (JsonNode n : s.path("schemas")) {
                    schemas.add(n.asText());
                }
            }
            out.add(new DataSourceSetting(e.getKey(), s.path("url").asText(null), s.path("secret").asText(null), schemas));
        }
        return out;
    }

    private static List<String> schemas(String list) {
        if (list == null) {
            return DEFAULT_SCHEMAS;
        }
        return Arrays.stream(list.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    @Override
    public List<String> names() {
        return List.copyOf(settings.keySet());
    }

    @Override
    public Optional<Database> find(String name) {
        DataSourceSetting setting = name == null ? null : settings.get(name);
        if (setting == null) {
            return Optional.empty();
        }
        return Optional.of(open.computeIfAbsent(name, n -> connect(setting)).database());
    }

    private Entry connect(DataSourceSetting s) {
        ReusedConnection connection = new ReusedConnection(sources.get(s.name()));
        JdbcSchemaCatalog catalog = new JdbcSchemaCatalog(connection, s.schemas(), catalogTtl, java.time.Clock.systemUTC());
        return new Entry(new Database(s.name(), catalog, new JdbcSampleRunner(connection, statementTimeout)), connection);
    }

    private ConnectionSource connectionSource(DataSourceSetting s) {
        Properties props = new Properties();
        props.setProperty("ApplicationName", "tablewright-" + s.name());
        // A backstop under the statement timeout: a dead server cannot hang the function.
        props.setProperty("socketTimeout", Long.toString(Math.max(10, statementTimeout.toSeconds() * 3)));
        props.setProperty("tcpKeepAlive", "true");
        ConnectionSource source = s.url() != null
                ? () -> DatabaseUrl.parse(s.url()).connect(props)
                : () -> {
                    try {
                        return SecretsExtensionClient.inLambda().databaseUrl(s.secretId()).connect(props);
                    } catch (IOException e) {
                        throw new SQLException("the credentials of data source '" + s.name() + "' could not be read: "
                                + e.getMessage(), "08001");
                    }
                };
        return source;
    }

    @Override
    public void close() {
        open.values().forEach(e -> e.connection().close());
        open.clear();
    }
}
