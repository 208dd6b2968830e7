package dev.tablewright.lambda;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * SnapStart priming's stand-in for a remote service: a socket on the loopback interface of this process that
 * answers one HTTP request with a canned response, so a real client's whole request path (marshalling, signing,
 * the HTTP client, reading the answer) runs before the snapshot without anything leaving the process.
 */
public final class LoopbackResponder implements AutoCloseable {

    private final ServerSocket server;
    private final Thread answering;

    private LoopbackResponder(ServerSocket server, String contentType, Map<String, String> headers, byte[] body) {
        this.server = server;
        this.answering = new Thread(() -> answer(contentType, headers, body), "loopback-priming");
        answering.setDaemon(true);
        answering.start();
    }

    /** Listens on a free loopback port; the first request gets {@code 200} with this body, the socket then closes. */
    public static LoopbackResponder answering(String contentType, Map<String, String> headers, byte[] body) throws IOException {
        return new LoopbackResponder(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()), contentType, headers, body);
    }

    /** {@code http://127.0.0.1:<port>} */
    public URI uri() {
        return URI.create("http://127.0.0.1:" + server.getLocalPort());
    }

    /** Waits briefly for the answer to be written, then stops listening. */
    @Override
    public void close() throws IOException {
        try {
            answering.join(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            server.close();
        }
    }

    private void answer(String contentType, Map<String, String> headers, byte[] body) {
        try (Socket socket = server.accept()) {
            readRequest(socket.getInputStream());
            StringBuilder head = new StringBuilder("HTTP/1.1 200 OK\r\nContent-Type: ").append(contentType).append("\r\n");
            headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
            head.append("Content-Length: ").append(body.length).append("\r\nConnection: close\r\n\r\n");
            OutputStream out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
        } catch (IOException e) {
            // the client reports the failed call; the priming then fails loudly there
        }
    }

    /** Reads the request's headers and its Content-Length body, so the client never sees a reset. */
    private static void readRequest(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != -1) {
            head.write(b);
            byte[] h = head.toByteArray();
            int n = h.length;
            if (n >= 4 && h[n - 4] == '\r' && h[n - 3] == '\n' && h[n - 2] == '\r' && h[n - 1] == '\n') {
                break;
            }
        }
        long length = 0;
        for (String line : head.toString(StandardCharsets.US_ASCII).split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Long.parseLong(line.substring(15).trim());
            }
        }
        in.readNBytes((int) Math.min(length, 1 << 20));
    }
}
