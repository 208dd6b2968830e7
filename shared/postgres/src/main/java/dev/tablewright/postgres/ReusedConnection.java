package dev.tablewright.postgres;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * One connection per data source, kept across warm invocations (a Lambda instance serves one request at a time,
 * so a pool would only add cold-start weight). A broken connection (SQLState class 08, or closed) is replaced once
 * and the work retried; a statement error is not retried.
 */
public final class ReusedConnection implements AutoCloseable {

    /** Work done on the connection. */
    @FunctionalInterface
    public interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    private final ConnectionSource source;
    private Connection connection;

    public ReusedConnection(ConnectionSource source) {
        this.source = source;
    }

    public synchronized <T> T with(Work<T> work) throws SQLException {
        Connection c = current();
        try {
            return work.run(c);
        } catch (SQLException e) {
            if (!isBroken(c, e)) {
                throw e;
            }
            discard();
            return work.run(current());
        }
    }

    private Connection current() throws SQLException {
        if (connection == null || connection.isClosed()) {
            connection = source.open();
        }
        return connection;
    }

    private static boolean isBroken(Connection c, SQLException e) {
        String state = e.getSQLState();
        try {
            return (state != null && state.startsWith("08")) || c.isClosed();
        } catch (SQLException ignored) {
            return true;
        }
    }

    private void discard() {
        try {
            if (connection != null) {
                connection.close();
            }
        } catch (SQLException ignored) {
            // already broken
        }
        connection = null;
    }

    @Override
    public synchronized void close() {
        discard();
    }
}
