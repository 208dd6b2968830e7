package dev.tablewright.localstack.local;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The local gateway's front door. The JDK's HTTP server answers a request whose target is not a valid URI (e.g.
 * {@code /configs/%zz}) itself, before any handler, with an HTML page naming {@code URISyntaxException}; API Gateway
 * answers such a request with JSON. So the port is served here: each request's head is read, a bad target gets a
 * JSON 400, and everything else is relayed byte for byte (a streamed chat answer too, as it is written) to the JDK
 * server behind. Each relayed request and its answer say {@code Connection: close}, so every request passes this check.
 */
final class RequestLineGuard implements AutoCloseable {

    private static final int MAX_HEAD_BYTES = 64 * 1024;
    private static final String BAD_TARGET_BODY = "{\"message\":\"Bad Request: the request path is not a valid URL\"}";
    private static final byte[] BAD_TARGET = ("HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\n"
            + "Content-Length: " + BAD_TARGET_BODY.length() + "\r\nConnection: close\r\n\r\n" + BAD_TARGET_BODY)
            .getBytes(StandardCharsets.US_ASCII);

    private final ServerSocket front;
    private final int backendPort;
    private final ExecutorService connections = Executors.newVirtualThreadPerTaskExecutor();
    private volatile boolean closed;

    RequestLineGuard(int port, int backendPort) throws IOException {
        this.front = new ServerSocket(port, 64, InetAddress.getLoopbackAddress());
        this.backendPort = backendPort;
    }

    int port() {
        return front.getLocalPort();
    }

    void start() {
        Thread.ofVirtual().name("gateway-front").start(() -> {
            while (!closed) {
                try {
                    Socket client = front.accept();
                    connections.submit(() -> serve(client));
                } catch (IOException e) {
                    if (!closed) {
                        continue;
                    }
                    return;
                }
            }
        });
    }

    private void serve(Socket client) {
        try (client) {
            InputStream in = new java.io.BufferedInputStream(client.getInputStream());
            byte[] head = readHead(in);
            if (head == null) {
                return;
            }
            String text = new String(head, StandardCharsets.ISO_8859_1);
            String[] requestLine = text.substring(0, Math.max(0, text.indexOf("\r\n"))).split(" ");
            if (requestLine.length < 3 || !validTarget(requestLine[1])) {
                client.getOutputStream().write(BAD_TARGET);
                client.getOutputStream().flush();
                return;
            }
            try (Socket backend = new Socket(InetAddress.getLoopbackAddress(), backendPort)) {
                OutputStream toBackend = backend.getOutputStream();
                toBackend.write(closing(text).getBytes(StandardCharsets.ISO_8859_1));
                toBackend.flush();
                Thread upstream = Thread.ofVirtual().start(() -> {
                    try {
                        in.transferTo(toBackend); // the request body, as it comes
                    } catch (IOException e) {
                        // either side closed: the answer below ends the exchange
                    }
                });
                // the answer's head says the connection closes (so no client reuses it past this check), then the
                // rest as it comes: unbuffered, each chunk of a streamed answer at once
                InputStream fromBackend = new java.io.BufferedInputStream(backend.getInputStream());
                byte[] answerHead = readHead(fromBackend);
                if (answerHead != null) {
                    OutputStream out = client.getOutputStream();
                    out.write(closing(new String(answerHead, StandardCharsets.ISO_8859_1)).getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                    byte[] buffer = new byte[8192];
                    int n;
                    while ((n = fromBackend.read(buffer)) != -1) {
                        out.write(buffer, 0, n);
                        out.flush();
                    }
                }
                upstream.interrupt();
            }
        } catch (IOException e) {
            // the client or the server went away: nothing more to relay
        }
    }

    private static boolean validTarget(String target) {
        try {
            new URI(target);
            return true;
        } catch (URISyntaxException e) {
            return false;
        }
    }

    /** The head with any Connection header replaced by {@code Connection: close}. */
    private static String closing(String head) {
        StringBuilder out = new StringBuilder();
        String[] lines = head.split("\r\n");
        for (int i = 0; i < lines.length; i++) {
            if (i > 0 && lines[i].regionMatches(true, 0, "connection:", 0, 11)) {
                continue;
            }
            out.append(lines[i]).append("\r\n");
        }
        return out.append("Connection: close\r\n\r\n").toString();
    }

    /** The request line and headers, through the blank line; null when the client sent nothing usable. */
    private static byte[] readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        int b;
        while ((b = in.read()) != -1) {
            head.write(b);
            matched = (b == '\r' && (matched == 0 || matched == 2)) || (b == '\n' && (matched == 1 || matched == 3)) ? matched + 1 : (b == '\r' ? 1 : 0);
            if (matched == 4) {
                byte[] bytes = head.toByteArray();
                return java.util.Arrays.copyOf(bytes, bytes.length - 4);
            }
            if (head.size() > MAX_HEAD_BYTES) {
                return null;
            }
        }
        return null;
    }

    @Override
    public void close() {
        closed = true;
        try {
            front.close();
        } catch (IOException e) {
            // closing anyway
        }
        connections.shutdownNow();
    }
}
