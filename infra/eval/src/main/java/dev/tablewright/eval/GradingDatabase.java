package dev.tablewright.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.codec.ConfigJson;
import dev.tablewright.config.ColumnSettings;
import dev.tablewright.config.TableConfig;
import dev.tablewright.grounding.ResultColumn;
import dev.tablewright.postgres.DatabaseUrl;
import dev.tablewright.postgres.PostgresDatabases;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.sql.BoundValue;
import dev.tablewright.sql.CompiledQuery;
import dev.tablewright.sql.SqlCompiler;
import dev.tablewright.validation.ValidationError;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One data source as the grader reads it: the golden query run as written, and a saved config run the way the
 * preview runs it (read with {@link ConfigJson}, grounded in the live catalogue and compiled by {@link SqlCompiler},
 * in a read-only transaction with {@code search_path = pg_catalog} and the time zone UTC), only without the
 * preview's sample limit, and with the columns the config hides left out.
 */
public final class GradingDatabase implements AutoCloseable {

    /** A query of the grader runs at most this long. */
    static final Duration STATEMENT_TIMEOUT = Duration.ofSeconds(60);

    /** A saved config that does not give a result: why, in the words the tools would use. */
    public static final class NotRunnable extends Exception {
        NotRunnable(String message) {
            super(message, null, false, false);
        }
    }

    private final String name;
    private final DatabaseUrl url;
    private final PostgresDatabases catalogs;

    public GradingDatabase(String name, DatabaseUrl url, List<String> schemas) {
        this.name = name;
        this.url = url;
        this.catalogs = new PostgresDatabases(Map.of(name, url::connect), schemas, STATEMENT_TIMEOUT, Duration.ofMinutes(10));
    }

    public String name() {
        return name;
    }

    public DatabaseUrl url() {
        return url;
    }

    /** The golden query's rows, every column. */
    public ResultTable golden(String sql) throws SQLException {
        return run(sql, List.of(), null);
    }

    /** A saved config's rows (its visible columns, in the query's order) and the header each of those columns shows. */
    public record SavedRows(ResultTable table, List<String> headers) {
        public SavedRows {
            headers = List.copyOf(headers);
        }
    }

    /** The rows of a saved config (its stored JSON), as the table shows them without the sample limit. */
    public SavedRows saved(JsonNode configJson) throws NotRunnable, SQLException {
        ConfigJson.Read read = ConfigJson.read(configJson);
        if (!read.ok()) {
            throw new NotRunnable("the saved config does not read: " + errors(read.errors()));
        }
        TableConfig config = read.config();
        SchemaCatalog catalog = catalogs.find(name).orElseThrow().catalog();
        SqlCompiler.Compilation compilation = SqlCompiler.compile(config, catalog, SqlCompiler.MAX_ROW_LIMIT);
        if (!compilation.ok()) {
            throw new NotRunnable("the saved config does not compile: " + errors(compilation.errors()));
        }
        CompiledQuery query = compilation.query();
        List<Integer> visible = new ArrayList<>();
        List<String> headers = new ArrayList<>();
        for (int i = 0; i < query.columns().size(); i++) {
            ColumnSettings settings = settings(config, query.columns().get(i));
            if (settings == null || !settings.isHidden()) {
                visible.add(i);
                headers.add(settings != null && settings.header() != null ? settings.header() : query.columns().get(i).key());
            }
        }
        try {
            return new SavedRows(run(withoutSampleLimit(query), query.parameters(), visible), headers);
        } catch (SQLException e) {
            throw new NotRunnable("the saved config's query failed: " + e.getMessage());
        }
    }

    /**
     * The compiled SELECT without its last line, the sample limit ({@code LIMIT rows + 1}) the compiler always ends
     * with; a query that does not end so is refused rather than run with a limit the grade would not see.
     */
    static String withoutSampleLimit(CompiledQuery query) {
        String limit = "\nLIMIT " + (query.rowLimit() + 1);
        if (!query.sql().endsWith(limit)) {
            throw new IllegalStateException("the compiled query does not end with its sample limit (" + limit.strip() + ")");
        }
        return query.sql().substring(0, query.sql().length() - limit.length());
    }

    private static ColumnSettings settings(TableConfig config, ResultColumn column) {
        if (config.visualSettings() == null || config.visualSettings().columns() == null) {
            return null;
        }
        return config.visualSettings().columns().get(column.key());
    }

    private ResultTable run(String sql, List<BoundValue> parameters, List<Integer> keep) throws SQLException {
        try (Connection c = url.connect()) {
            c.setAutoCommit(false);
            try {
                try (Statement s = c.createStatement()) {
                    s.execute("SET TRANSACTION READ ONLY; SET LOCAL statement_timeout = " + STATEMENT_TIMEOUT.toMillis()
                            + "; SET LOCAL search_path = pg_catalog; SET LOCAL TIME ZONE 'UTC'");
                }
                try (PreparedStatement ps = c.prepareStatement(sql)) {
                    for (int i = 0; i < parameters.size(); i++) {
                        ps.setString(i + 1, parameters.get(i).text());
                    }
                    try (ResultSet rs = ps.executeQuery()) {
                        return ResultTable.read(rs, keep);
                    }
                }
            } finally {
                c.rollback();
            }
        }
    }

    private static String errors(List<ValidationError> errors) {
        List<String> out = new ArrayList<>();
        for (ValidationError e : errors) {
            out.add((e.field() == null || e.field().isEmpty() ? "" : e.field() + ": ") + e.message());
        }
        return String.join("; ", out);
    }

    @Override
    public void close() {
        catalogs.close();
    }
}
