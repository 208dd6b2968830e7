package dev.tablewright.fakes.postgres;

import dev.tablewright.postgres.DatabaseUrl;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tests' PostgreSQL where none runs, on an address of its own here (the listener takes 127.0.0.1:5432 only
 * where nothing answers there): a JDBC connection to database {@code test} reaches an embedded server, or, as root,
 * fails with PostgreSQL's own error saying why and what to do.
 */
class PostgresForTestsTest {

    @Test
    void aConnectionWhereNothingAnsweredReachesAnEmbeddedServerOrSaysWhyNot() throws Exception {
        InetSocketAddress free;
        try (ServerSocket probe = new ServerSocket(0, 1, PostgresForTests.DEFAULT_ADDRESS.getAddress())) {
            free = new InetSocketAddress(PostgresForTests.DEFAULT_ADDRESS.getAddress(), probe.getLocalPort());
        }
        try (PostgresForTests.Relay relay = PostgresForTests.Relay.listenIfFree(free)) {
            DatabaseUrl url = DatabaseUrl.parse("jdbc:postgresql://127.0.0.1:" + relay.port() + "/" + PostgresForTests.DATABASE + "?user=postgres");
            if (EmbeddedPostgresServer.runningAsRoot()) {
                SQLException refused = assertThrows(SQLException.class, url::connect);
                assertTrue(refused.getMessage().contains("refuses to run as root") && refused.getMessage().contains("DATABASE_URL"),
                        refused.getMessage());
                return;
            }
            for (int i = 0; i < 2; i++) { // the second connection goes to the same server
                try (Connection c = url.connect(); Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT current_database(), current_user, version()")) {
                    assertTrue(rs.next());
                    assertEquals("test", rs.getString(1));
                    assertEquals("postgres", rs.getString(2));
                    assertTrue(rs.getString(3).startsWith("PostgreSQL"), rs.getString(3));
                }
            }
        }
    }

    @Test
    void whereAServerAnswersNothingIsStarted() throws Exception {
        try (ServerSocket someone = new ServerSocket(0, 1, PostgresForTests.DEFAULT_ADDRESS.getAddress())) {
            assertNull(PostgresForTests.Relay.listenIfFree(new InetSocketAddress(someone.getInetAddress(), someone.getLocalPort())));
        }
    }
}
