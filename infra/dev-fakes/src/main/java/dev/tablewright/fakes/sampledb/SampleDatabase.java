package dev.tablewright.fakes.sampledb;

import dev.tablewright.postgres.DatabaseUrl;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;

/**
 * The sample database (an inventory-and-orders business, {@code sample-db/sample.sql}), loaded into a real
 * PostgreSQL. Loading is idempotent and safe to run from several processes at once: it runs in one transaction
 * under an advisory lock, and does nothing when the schemas already hold this exact version of the script
 * (recorded as a comment on schema {@code core}). Tests call {@link #ensureLoaded()}; the local stack too.
 *
 * <p>Command line: {@code java ... SampleDatabase [--force] [jdbc-or-postgres-url]}.
 */
public final class SampleDatabase {

    /** The schemas the script creates (and drops on reload). */
    public static final List<String> SCHEMAS = List.of("core", "inventory", "sales", "analytics");
    /** The tables with data (views excluded), as {@code schema.table}. */
    public static final List<String> TABLES = List.of("core.users", "core.warehouses", "inventory.items",
            "inventory.stock_levels", "sales.customers", "sales.orders", "sales.order_lines");

    private static final String SCRIPT_RESOURCE = "/sample-db/sample.sql";
    private static final String MARKER_PREFIX = "Tablewright sample database ";
    /** pg_advisory_xact_lock key for loading: arbitrary, fixed ("twsample"). */
    private static final long LOAD_LOCK = 0x7477_7361_6d70_6c65L;
    /** Key for creating a dedicated database. */
    private static final long CREATE_LOCK = LOAD_LOCK + 1;

    private static final String SCRIPT = readScript();
    private static final String MARKER = MARKER_PREFIX + sha256(SCRIPT).substring(0, 16);

    private SampleDatabase() {
    }

    /** Loads the sample into {@code DATABASE_URL} (default local {@code test}) unless it is already there. */
    public static DatabaseUrl ensureLoaded() {
        return ensureLoaded(DatabaseUrl.fromEnvironment());
    }

    public static DatabaseUrl ensureLoaded(DatabaseUrl url) {
        load(url, false);
        return url;
    }

    /** Drops and recreates the sample schemas even if they are current. */
    public static void recreate(DatabaseUrl url) {
        load(url, true);
    }

    /**
     * A database of its own on the same server holding the sample, for tests that must not share objects with
     * anybody (injection attempts, timeouts). Created when missing (needs CREATEDB); falls back to {@code base}
     * when the role may not create databases.
     */
    public static DatabaseUrl dedicated(DatabaseUrl base, String databaseName) {
        if (!databaseName.matches("[a-z_][a-z0-9_]{0,62}")) {
            throw new IllegalArgumentException("database name must be a plain lower-case identifier");
        }
        try (Connection c = base.connect(); Statement s = c.createStatement()) {
            s.execute("SELECT pg_advisory_lock(" + CREATE_LOCK + ")");
            try {
                boolean exists;
                try (PreparedStatement q = c.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
                    q.setString(1, databaseName);
                    try (ResultSet rs = q.executeQuery()) {
                        exists = rs.next();
                    }
                }
                if (!exists) {
                    s.execute("CREATE DATABASE \"" + databaseName + "\"");
                }
            } finally {
                s.execute("SELECT pg_advisory_unlock(" + CREATE_LOCK + ")");
            }
        } catch (SQLException e) {
            if ("42501".equals(e.getSQLState())) { // insufficient_privilege: share the base database
                return ensureLoaded(base);
            }
            throw new IllegalStateException("could not create database " + databaseName + ": " + e.getMessage(), e);
        }
        return ensureLoaded(base.withDatabase(databaseName));
    }

    private static void load(DatabaseUrl url, boolean force) {
        try (Connection c = url.connect()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("SET LOCAL client_min_messages = warning");
                s.execute("SELECT pg_advisory_xact_lock(" + LOAD_LOCK + ")");
                if (!force && MARKER.equals(currentMarker(c))) {
                    c.rollback();
                    return;
                }
                s.execute(SCRIPT);
                s.execute("COMMENT ON SCHEMA core IS '" + MARKER + "'");
                c.commit();
            } catch (SQLException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not load the sample database into " + url + ": " + e.getMessage(), e);
        }
    }

    private static String currentMarker(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT obj_description(oid, 'pg_namespace') FROM pg_namespace WHERE nspname = 'core'")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    private static String readScript() {
        try (InputStream in = SampleDatabase.class.getResourceAsStream(SCRIPT_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(SCRIPT_RESOURCE + " is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + SCRIPT_RESOURCE, e);
        }
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public static void main(String[] args) {
        boolean force = false;
        DatabaseUrl url = DatabaseUrl.fromEnvironment();
        for (String arg : args) {
            if (arg.equals("--force")) {
                force = true;
            } else {
                url = DatabaseUrl.parse(arg);
            }
        }
        load(url, force);
        System.out.println("sample database ready in " + url + " (" + MARKER + ")");
    }
}
