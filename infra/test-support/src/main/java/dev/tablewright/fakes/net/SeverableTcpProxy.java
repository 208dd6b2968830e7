package dev.tablewright.fakes.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback TCP proxy in front of a real server (PostgreSQL, say) whose network the test can take away: while
 * {@link #sever severed}, every open connection is cut and every new one is closed as soon as it is accepted, as
 * when a database fails over or a link drops; {@link #restore} forwards again. Bytes pass through unchanged. It never
 * runs in a function: a test points a client's URL at {@link #port()} instead of the server's.
 */
public final class SeverableTcpProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger refused = new AtomicInteger();
    private volatile boolean severed;

    private SeverableTcpProxy(InetSocketAddress target) throws IOException {
        this.target = target;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("tcp-proxy-accept").start(this::acceptLoop);
    }

    /** A proxy on a free loopback port in front of {@code host:port}. */
    public static SeverableTcpProxy to(String host, int port) throws IOException {
        return new SeverableTcpProxy(new InetSocketAddress(host, port));
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** Cuts every open connection, and closes each new one on accept until {@link #restore}. */
    public void sever() {
        severed = true;
        open.forEach(SeverableTcpProxy::closeQuietly);
        open.clear();
    }

    /** Forwards new connections again. */
    public void restore() {
        severed = false;
    }

    /** Connections closed on accept while severed. */
    public int refusedConnections() {
        return refused.get();
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // closed
            }
            if (severed) {
                refused.incrementAndGet();
                closeQuietly(client);
                continue;
            }
            Socket server = new Socket();
            try {
                server.connect(target, 5_000);
            } catch (IOException e) {
                closeQuietly(client);
                closeQuietly(server);
                continue;
            }
            open.add(client);
            open.add(server);
            Thread.ofVirtual().start(() -> pipe(client, server));
            Thread.ofVirtual().start(() -> pipe(server, client));
        }
    }

    /** Copies one direction until either side ends, then closes both (the other direction then ends too). */
    private void pipe(Socket from, Socket to) {
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            byte[] buffer = new byte[16 * 1024];
            for (int n; (n = in.read(buffer)) >= 0; ) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException ended) {
            // cut by sever(), or the peer went away
        } finally {
            open.remove(from);
            open.remove(to);
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() {
        try {
            listener.close();
        } catch (IOException ignored) {
            // already closed
        }
        sever();
    }
}
