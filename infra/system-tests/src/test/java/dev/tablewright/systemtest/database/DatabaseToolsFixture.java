package dev.tablewright.systemtest.database;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.configstore.ConfigStore;
import dev.tablewright.configstore.StoredConfig;
import dev.tablewright.dynamodb.DynamoConfigStore;
import dev.tablewright.dynamodb.DynamoPreviewStore;
import dev.tablewright.fakes.dynamodb.DynamoDbEngine;
import dev.tablewright.json.Json;
import dev.tablewright.postgres.DatabaseUrl;
import dev.tablewright.postgres.PostgresDatabases;
import dev.tablewright.preview.PreviewStore;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.tools.PreviewTableConfigTool;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The database tools wired to real parts: the sample database on the real PostgreSQL (a database of the tools'
 * tests' own, see {@link DatabaseTestSupport}) and the config and preview stores on DynamoDB Local.
 */
final class DatabaseToolsFixture implements AutoCloseable {

    static final String OWNER = "u_database_it";
    static final List<String> SCHEMAS = List.of("core", "inventory", "sales", "analytics");
    /** Application name of the tools' connections, to find their statements in pg_stat_activity. */
    static final String APPLICATION = "tablewright-database-it";

    final DatabaseUrl url;
    final PostgresDatabases databases;
    final PreviewStore previews;
    final ConfigStore configs;
    final PreviewTableConfigTool preview;
    final Duration timeout;

    DatabaseToolsFixture(DynamoDbEngine engine, Duration statementTimeout) {
        this.url = DatabaseTestSupport.database();
        this.timeout = statementTimeout;
        Properties props = new Properties();
        props.setProperty("ApplicationName", APPLICATION);
        this.databases = new PostgresDatabases(Map.of("default", () -> url.connect(props)), SCHEMAS, statementTimeout,
                Duration.ofSeconds(60));
        String previewsTable = engine.tables().tableName("PreviewsTable");
        this.previews = new DynamoPreviewStore(engine.client(), previewsTable);
        this.configs = new DynamoConfigStore(engine.client(), engine.tables().tableName("ConfigsTable"));
        this.preview = new PreviewTableConfigTool(databases, previews,
                (owner, id) -> configs.get(owner, id).map(StoredConfig::config), Clock.systemUTC(), 10, Duration.ofHours(1));
    }

    ToolOutcome preview(String configJson, String description) {
        ObjectNode args = Json.object();
        args.set("config", parse(configJson));
        if (description != null) {
            args.put("description", description);
        }
        // a call id of its own, as a model gives each call: one call run twice is one preview (PreviewTableConfigTest)
        return preview(args, "call_" + CALLS.incrementAndGet());
    }

    private static final java.util.concurrent.atomic.AtomicInteger CALLS = new java.util.concurrent.atomic.AtomicInteger();

    /** One call of the preview tool, by its id. */
    ToolOutcome preview(ObjectNode args, String toolCallId) {
        return preview.execute(new ToolInvocation("preview_table_config", toolCallId, "c_database_it", OWNER, args, Map.of()));
    }

    /** The preview's answer, which must be an ok one. */
    JsonNode previewAnswer(String configJson, String description) {
        ToolOutcome outcome = preview(configJson, description);
        return org.junit.jupiter.api.Assertions.assertInstanceOf(ToolOutcome.Ok.class, outcome, outcome::toString).output();
    }

    static JsonNode parse(String json) {
        try {
            return Json.parse(json);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** md5 of every table's rows and the list of relations in the sample schemas: equal means unchanged. */
    String fingerprint() throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        try (Connection c = url.connect(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT string_agg(n.nspname || '.' || c.relname || ':' || c.relkind::text, ',' ORDER BY 1) "
                    + "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN ('core','inventory','sales','analytics')")) {
                rs.next();
                out.put("relations", rs.getString(1));
            }
            for (String table : dev.tablewright.fakes.sampledb.SampleDatabase.TABLES) {
                try (ResultSet rs = s.executeQuery("SELECT count(*) || ':' || md5(string_agg(t::text, '|' ORDER BY t::text)) FROM " + table + " t")) {
                    rs.next();
                    out.put(table, rs.getString(1));
                }
            }
        }
        return out.toString();
    }

    /** Statements of the tools' connections still running longer than the statement timeout. */
    long statementsOutlivingTheTimeout() throws SQLException {
        try (Connection c = url.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE application_name = '" + APPLICATION
                     + "' AND state = 'active' AND now() - query_start > interval '" + timeout.toMillis() + " milliseconds'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Override
    public void close() {
        databases.close();
    }
}
