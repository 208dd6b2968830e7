package dev.tablewright.localstack.local;

import dev.tablewright.fakes.postgres.EmbeddedPostgresServer;
import dev.tablewright.fakes.sampledb.SampleDatabase;
import dev.tablewright.postgres.DatabaseUrl;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The local stack's PostgreSQL, loaded with the sample database. First match wins:
 * <ol>
 *   <li>{@code DATABASE_URL}, when set;</li>
 *   <li>the server on 127.0.0.1:5432, when one answers (as user {@code postgres}; the sample goes into a database
 *       of its own, {@value #LOCAL_DATABASE}, when the role may create one);</li>
 *   <li>an embedded PostgreSQL ({@link EmbeddedPostgresServer}, binaries from Maven Central) on a free port,
 *       stopped with the stack. PostgreSQL refuses to run as root: there the stack says so and how to point it at a
 *       server instead.</li>
 * </ol>
 */
public final class LocalDatabase implements AutoCloseable {

    public static final String LOCAL_DATABASE = "tablewright_local";
    static final String LOCAL_SERVER = "jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres&connectTimeout=5";

    /** Why the stack could not get a database, in words a newcomer can act on. */
    public static final class Unavailable extends Exception {
        Unavailable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final DatabaseUrl url;
    private final String origin;
    private final EmbeddedPostgresServer embedded;

    private LocalDatabase(DatabaseUrl url, String origin, EmbeddedPostgresServer embedded) {
        this.url = url;
        this.origin = origin;
        this.embedded = embedded;
    }

    public DatabaseUrl url() {
        return url;
    }

    /** Where the database came from, for the banner. */
    public String origin() {
        return origin;
    }

    public static LocalDatabase resolve(String configuredUrl) throws Unavailable {
        if (configuredUrl != null && !configuredUrl.isBlank()) {
            DatabaseUrl url;
            try {
                url = DatabaseUrl.parse(configuredUrl.trim());
            } catch (IllegalArgumentException e) {
                throw new Unavailable("DATABASE_URL is not a PostgreSQL URL: " + e.getMessage(), e);
            }
            return new LocalDatabase(load(url, "DATABASE_URL"), "DATABASE_URL (" + url + ")", null);
        }
        if (answers("127.0.0.1", 5432)) {
            DatabaseUrl server = DatabaseUrl.parse(LOCAL_SERVER);
            try (Connection ignored = server.connect()) {
                // reachable as postgres: fall through
            } catch (SQLException e) {
                throw new Unavailable("A PostgreSQL server answers on 127.0.0.1:5432 but did not let user postgres in ("
                        + e.getMessage() + ").\nPoint the stack at a database you can use instead, e.g.\n"
                        + "  DATABASE_URL=postgres://USER:PASSWORD@127.0.0.1:5432/DBNAME infra/bin/local-stack", e);
            }
            try {
                DatabaseUrl url = SampleDatabase.dedicated(server, LOCAL_DATABASE);
                return new LocalDatabase(url, "the local server on 127.0.0.1:5432 (" + url + ")", null);
            } catch (RuntimeException e) {
                throw new Unavailable("Could not load the sample database into the server on 127.0.0.1:5432: "
                        + e.getMessage(), e);
            }
        }
        return embedded();
    }

    private static LocalDatabase embedded() throws Unavailable {
        EmbeddedPostgresServer server;
        try {
            server = EmbeddedPostgresServer.start();
        } catch (EmbeddedPostgresServer.Unavailable e) {
            throw new Unavailable("No PostgreSQL: DATABASE_URL is not set and nothing answers on 127.0.0.1:5432.\n"
                    + e.getMessage() + "\n  DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DBNAME infra/bin/local-stack", e);
        }
        try {
            DatabaseUrl url = server.url("postgres");
            return new LocalDatabase(load(url, "the embedded PostgreSQL"),
                    "an embedded PostgreSQL on port " + server.port() + " (stopped with the stack)", server);
        } catch (Unavailable | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    private static DatabaseUrl load(DatabaseUrl url, String where) throws Unavailable {
        try {
            return SampleDatabase.ensureLoaded(url);
        } catch (RuntimeException e) {
            throw new Unavailable("Could not load the sample database into " + where + ": " + e.getMessage(), e);
        }
    }

    static boolean answers(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() {
        if (embedded != null) {
            embedded.close();
        }
    }
}
