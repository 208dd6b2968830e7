package dev.tablewright.fakes.postgres;

import dev.tablewright.postgres.DatabaseUrl;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The tests' PostgreSQL on a machine that runs none. The tests, and the functions they start, use {@code DATABASE_URL},
 * else the server on {@code 127.0.0.1:5432} (database {@code test}, user {@code postgres}). When {@code DATABASE_URL}
 * is unset and nothing answers there, this listener (a JUnit Platform session listener, registered in the dev-fakes
 * test-jar's {@code META-INF/services}, so it opens in every test JVM that has the test-jar) listens on that address
 * itself. At the first connection it starts one {@link EmbeddedPostgresServer} for the JVM, creates database
 * {@code test} in it, and from then on relays each connection to it; the session's end stops it. So every default
 * keeps pointing at one address, child processes included, and no server starts in a JVM that never connects.
 *
 * <p>Where a server runs (CI) or {@code DATABASE_URL} is set, it does nothing. As root, where PostgreSQL refuses to
 * run, each connection is answered with a PostgreSQL error saying so and what to do, which is what the failing test
 * then reports.
 */
public final class PostgresForTests implements LauncherSessionListener {

    /** Where the tests' PostgreSQL is when DATABASE_URL is unset ({@link DatabaseUrl#DEFAULT}). */
    static final InetSocketAddress DEFAULT_ADDRESS = new InetSocketAddress(loopback(), 5432);
    static final String DATABASE = "test";

    private Relay relay;

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        String configured = System.getenv(DatabaseUrl.ENV);
        if (configured == null || configured.isBlank()) {
            relay = Relay.listenIfFree(DEFAULT_ADDRESS);
        }
    }

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        if (relay != null) {
            relay.close();
        }
    }

    /** A listener on an address nobody answers on, relaying to an embedded server it starts at the first connection. */
    static final class Relay implements AutoCloseable {

        private final ServerSocket socket;
        private EmbeddedPostgresServer server;
        private EmbeddedPostgresServer.Unavailable unavailable;

        private Relay(ServerSocket socket) {
            this.socket = socket;
        }

        /** Null when something already answers on {@code address} (or takes it first). */
        static Relay listenIfFree(InetSocketAddress address) {
            if (answers(address)) {
                return null;
            }
            ServerSocket socket;
            try {
                socket = new ServerSocket();
                socket.bind(address, 50);
            } catch (IOException e) {
                return null; // taken meanwhile: that server answers instead
            }
            System.err.println("[tests] No PostgreSQL on " + address.getHostString() + ":" + address.getPort()
                    + " and DATABASE_URL unset: " + (EmbeddedPostgresServer.runningAsRoot()
                    ? "database tests will fail here. " + EmbeddedPostgresServer.AS_ROOT
                    : "an embedded PostgreSQL answers there for this JVM, started at the first connection."));
            Relay relay = new Relay(socket);
            Thread.ofPlatform().daemon().name("postgres-for-tests").start(relay::accept);
            return relay;
        }

        int port() {
            return socket.getLocalPort();
        }

        private void accept() {
            while (!socket.isClosed()) {
                try {
                    Socket client = socket.accept();
                    Thread.ofVirtual().start(() -> serve(client));
                } catch (IOException e) {
                    return; // closed
                }
            }
        }

        private void serve(Socket client) {
            try (client) {
                EmbeddedPostgresServer target;
                try {
                    target = server();
                } catch (EmbeddedPostgresServer.Unavailable e) {
                    refuse(client, e.getMessage());
                    return;
                }
                try (Socket upstream = new Socket(loopback(), target.port())) {
                    Thread toServer = Thread.ofVirtual().start(() -> copy(client, upstream));
                    copy(upstream, client);
                    toServer.join();
                }
            } catch (IOException | InterruptedException e) {
                // the connection ends; the client sees it closed
            }
        }

        /** The embedded server, started (and its database {@code test} created) by the first connection. */
        private synchronized EmbeddedPostgresServer server() throws EmbeddedPostgresServer.Unavailable {
            if (server == null && unavailable == null) {
                try {
                    EmbeddedPostgresServer started = EmbeddedPostgresServer.start();
                    try (Connection c = started.url("postgres").connect(); Statement s = c.createStatement()) {
                        s.execute("CREATE DATABASE " + DATABASE);
                    } catch (SQLException e) {
                        started.close();
                        throw new EmbeddedPostgresServer.Unavailable("could not create database " + DATABASE + ": " + e.getMessage(), e);
                    }
                    server = started;
                } catch (EmbeddedPostgresServer.Unavailable e) {
                    unavailable = e;
                }
            }
            if (unavailable != null) {
                throw unavailable;
            }
            return server;
        }

        /** Copies until either side ends, then ends the other side's direction (both, when one fails). */
        private static void copy(Socket from, Socket to) {
            try {
                from.getInputStream().transferTo(to.getOutputStream());
                to.shutdownOutput();
            } catch (IOException e) {
                closeQuietly(from);
                closeQuietly(to);
            }
        }

        /**
         * Answers a connection attempt as PostgreSQL does when it will not serve one: no to SSL or GSS encryption, then
         * a FATAL ErrorResponse carrying {@code message}, which the JDBC driver reports as the connection's error.
         */
        private static void refuse(Socket client, String message) throws IOException {
            DataInputStream in = new DataInputStream(client.getInputStream());
            DataOutputStream out = new DataOutputStream(client.getOutputStream());
            while (true) {
                int length = in.readInt();
                int code = in.readInt();
                if (length == 8 && (code == 80877103 || code == 80877104)) { // SSLRequest, GSSENCRequest
                    out.writeByte('N');
                    out.flush();
                    continue;
                }
                in.skipNBytes(length - 8L); // the StartupMessage's parameters
                break;
            }
            byte[] text = ("PostgreSQL for the tests: DATABASE_URL is unset and nothing else answers on this address. " + message)
                    .getBytes(StandardCharsets.UTF_8);
            byte[][] fields = {"SFATAL".getBytes(StandardCharsets.US_ASCII), "VFATAL".getBytes(StandardCharsets.US_ASCII),
                    "C08001".getBytes(StandardCharsets.US_ASCII), concat((byte) 'M', text)};
            int length = 4 + 1;
            for (byte[] f : fields) {
                length += f.length + 1;
            }
            out.writeByte('E');
            out.writeInt(length);
            for (byte[] f : fields) {
                out.write(f);
                out.writeByte(0);
            }
            out.writeByte(0);
            out.flush();
        }

        private static byte[] concat(byte first, byte[] rest) {
            byte[] out = new byte[rest.length + 1];
            out[0] = first;
            System.arraycopy(rest, 0, out, 1, rest.length);
            return out;
        }

        @Override
        public synchronized void close() {
            closeQuietly(socket);
            if (server != null) {
                server.close();
                server = null;
            }
        }
    }

    static boolean answers(InetSocketAddress address) {
        try (Socket probe = new Socket()) {
            probe.connect(address, 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // already closed
        }
    }

    private static InetAddress loopback() {
        try {
            return InetAddress.getByName("127.0.0.1");
        } catch (UnknownHostException e) {
            throw new UncheckedIOException(e);
        }
    }
}
