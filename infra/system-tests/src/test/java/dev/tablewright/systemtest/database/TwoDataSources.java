package dev.tablewright.systemtest.database;

import dev.tablewright.fakes.sampledb.SampleDatabase;
import dev.tablewright.json.Json;
import dev.tablewright.postgres.DatabaseUrl;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.sql.Connection;
import java.sql.Statement;

/**
 * Two data sources for the suites where the user picks the database: {@code production} (the sample database) and
 * {@code staging} (a copy of it that also has {@code sales.returns}), as the {@code DATA_SOURCES} value names them.
 */
public final class TwoDataSources {
    private TwoDataSources() {
    }

    /** The {@code DATA_SOURCES} JSON for both, creating the staging database when it is missing. */
    public static String dataSourcesJson() throws Exception {
        DatabaseUrl production = SampleDatabase.ensureLoaded();
        DatabaseUrl staging = SampleDatabase.dedicated(production, "tablewright_staging_test");
        if (staging.equals(production)) {
            throw new IllegalStateException("the test role may not create databases: a staging database is needed");
        }
        try (Connection c = staging.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS sales.returns (id integer PRIMARY KEY, order_id integer, amount numeric(10,2))");
        }
        ObjectNode sources = Json.object();
        sources.putObject("production").put("url", production.jdbcUrlWithCredentials());
        sources.putObject("staging").put("url", staging.jdbcUrlWithCredentials());
        return Json.write(sources);
    }
}
