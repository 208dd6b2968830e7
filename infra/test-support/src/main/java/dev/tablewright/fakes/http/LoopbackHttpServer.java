package dev.tablewright.fakes.http;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A small HTTP/1.1 server on 127.0.0.1, one virtual thread per connection, keep-alive, chunked request and
 * response bodies with trailers, and the ability to cut a connection. It exists because the stand-ins need what
 * {@code com.sun.net.httpserver} does not give: request trailers (Lambda's streaming error report), each
 * request chunk as it arrives, and abrupt disconnects.
 */
public final class LoopbackHttpServer implements AutoCloseable {

    /** Answers one request. Reading the body and writing the response are up to the handler. */
    @FunctionalInterface
    public interface Handler {
        void handle(HttpRequest request, HttpResponder response) throws Exception;
    }

    private final ServerSocket serverSocket;
    private final Handler handler;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private LoopbackHttpServer(ServerSocket serverSocket, Handler handler) {
        this.serverSocket = serverSocket;
        this.handler = handler;
    }

    /** Starts on an ephemeral port (port 0) or the given one. */
    public static LoopbackHttpServer start(int port, String name, Handler handler) throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.setReuseAddress(true);
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 128);
        LoopbackHttpServer server = new LoopbackHttpServer(socket, handler);
        Thread.ofPlatform().daemon().name(name + "-accept").start(server::acceptLoop);
        return server;
    }

    public int port() {
        return serverSocket.getLocalPort();
    }

    /** {@code 127.0.0.1:port}, the form of {@code AWS_LAMBDA_RUNTIME_API}. */
    public String hostAndPort() {
        return "127.0.0.1:" + port();
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket socket = serverSocket.accept();
                socket.setTcpNoDelay(true);
                open.add(socket);
                Thread.ofVirtual().start(() -> serve(socket));
            } catch (IOException e) {
                if (!closed) {
                    System.err.println("LoopbackHttpServer: accept failed: " + e);
                }
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            InputStream in = new BufferedInputStream(socket.getInputStream());
            OutputStream out = new BufferedOutputStream(socket.getOutputStream());
            while (!closed) {
                String requestLine = HttpLines.readLine(in);
                if (requestLine == null) {
                    return;
                }
                if (requestLine.isEmpty()) {
                    continue;
                }
                String[] parts = requestLine.split(" ");
                if (parts.length != 3) {
                    return;
                }
                Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
                HttpLines.readHeaders(in, headers);
                HttpRequest request = new HttpRequest(parts[0], parts[1], headers, in);
                HttpResponder response = new HttpResponder(socket, in, out);
                try {
                    handler.handle(request, response);
                } catch (Exception e) {
                    if (response.isAborted()) {
                        return;
                    }
                    if (!response.isStarted()) {
                        response.sendText(500, "text/plain", "handler failed: " + e.getClass().getSimpleName());
                    } else {
                        return; // mid-response: nothing sensible to add, drop the connection
                    }
                }
                if (response.isAborted()) {
                    return;
                }
                if (response.isChunkedOpen()) {
                    response.endChunked();
                }
                if (!response.isStarted()) {
                    response.send(204, Map.of(), new byte[0]);
                }
                while (request.nextChunk() != null) {
                    // drain what the handler did not read, so the next request on this connection parses
                }
                if ("close".equalsIgnoreCase(headers.getOrDefault("Connection", ""))) {
                    return;
                }
            }
        } catch (SocketException e) {
            // the peer went away
        } catch (IOException e) {
            if (!closed) {
                System.err.println("LoopbackHttpServer: connection failed: " + e.getMessage());
            }
        } finally {
            open.remove(socket);
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            serverSocket.close();
        } catch (IOException ignored) {
            // already closed
        }
        for (Socket socket : open) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // going away anyway
            }
        }
    }
}
