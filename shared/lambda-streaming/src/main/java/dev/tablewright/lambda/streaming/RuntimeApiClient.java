package dev.tablewright.lambda.streaming;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Lambda Runtime API (2018-06-01) spoken over plain sockets: the JDK's HTTP client cannot send chunked
 * trailers (how a streamed response reports a late error), and loading it would cost cold-start time for no gain.
 * One connection per request; the API is on the loopback interface.
 */
final class RuntimeApiClient {

    static final String VERSION = "/2018-06-01";
    static final String ERROR_TYPE = "Lambda-Runtime-Function-Error-Type";
    static final String ERROR_BODY = "Lambda-Runtime-Function-Error-Body";

    private final String host;
    private final int port;

    RuntimeApiClient(String hostAndPort) {
        int colon = hostAndPort.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("AWS_LAMBDA_RUNTIME_API is not host:port: " + hostAndPort);
        }
        this.host = hostAndPort.substring(0, colon);
        this.port = Integer.parseInt(hostAndPort.substring(colon + 1));
    }

    /** Blocks until Lambda hands over the next event (no timeout, as the API asks). */
    NextInvocation next() throws IOException {
        Response response = awaitGet("/runtime/invocation/next");
        String requestId = response.headers.get("Lambda-Runtime-Aws-Request-Id");
        if (requestId == null) {
            throw new IOException("/next answered without Lambda-Runtime-Aws-Request-Id");
        }
        long deadline = 0;
        try {
            deadline = Long.parseLong(response.headers.getOrDefault("Lambda-Runtime-Deadline-Ms", "0").trim());
        } catch (NumberFormatException ignored) {
            // no usable deadline: the turn falls back to its own time budget
        }
        return new NextInvocation(requestId, deadline, response.headers.get("Lambda-Runtime-Invoked-Function-Arn"),
                response.headers.get("Lambda-Runtime-Trace-Id"), response.body);
    }

    /**
     * {@code GET /runtime/restore/next} (SnapStart): the runtime is ready for the snapshot; Lambda takes it during
     * this call, which returns in the restored environment.
     */
    void restoreNext() throws IOException {
        awaitGet("/runtime/restore/next");
    }

    /** A GET that waits as long as Lambda takes to answer (it answers when there is something to do); 200 or throws. */
    private Response awaitGet(String path) throws IOException {
        try (Socket socket = connect()) {
            socket.setSoTimeout(0);
            send(socket, "GET " + VERSION + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n", null);
            Response response = read(socket.getInputStream());
            if (response.status != 200) {
                throw new IOException(path + " answered " + response.status + ": " + response.text());
            }
            return response;
        }
    }

    /** {@code POST /runtime/restore/error}: a hook failed after the restore. */
    void restoreError(String errorType, String message) throws IOException {
        post(VERSION + "/runtime/restore/error", errorType, errorDocument(errorType, message));
    }

    /** {@code POST /runtime/invocation/{id}/error}: the invocation failed before any response byte. */
    void invocationError(String requestId, String errorType, String message) throws IOException {
        post(VERSION + "/runtime/invocation/" + requestId + "/error", errorType, errorDocument(errorType, message));
    }

    /** {@code POST /runtime/init/error}: the function could not start. */
    void initError(String errorType, String message) throws IOException {
        post(VERSION + "/runtime/init/error", errorType, errorDocument(errorType, message));
    }

    /** Opens the streamed response of {@code requestId}; nothing is sent until its first flush. */
    RuntimeResponseStream streamingResponse(String requestId) {
        return new RuntimeResponseStream(this, requestId);
    }

    Socket connect() throws IOException {
        Socket socket = new Socket();
        socket.setTcpNoDelay(true); // every flush is an event the client waits for
        socket.connect(new InetSocketAddress(host, port), 10_000);
        return socket;
    }

    String host() {
        return host;
    }

    private void post(String path, String errorType, byte[] body) throws IOException {
        try (Socket socket = connect()) {
            socket.setSoTimeout(30_000);
            send(socket, "POST " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\nContent-Type: application/json\r\n"
                    + ERROR_TYPE + ": " + errorType + "\r\nContent-Length: " + body.length + "\r\n\r\n", body);
            Response response = read(socket.getInputStream());
            if (response.status != 202) {
                throw new IOException(path + " answered " + response.status + ": " + response.text());
            }
        }
    }

    /** The error document of the Runtime API: {@code {"errorMessage":..,"errorType":..}}; never a stack trace. */
    static byte[] errorDocument(String errorType, String message) {
        return ("{\"errorMessage\":" + quote(message) + ",\"errorType\":" + quote(errorType) + "}").getBytes(StandardCharsets.UTF_8);
    }

    static String base64ErrorDocument(String errorType, String message) {
        return Base64.getEncoder().encodeToString(errorDocument(errorType, message));
    }

    private static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : (text == null ? "" : text).toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    private static void send(Socket socket, String head, byte[] body) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(head.getBytes(StandardCharsets.ISO_8859_1));
        if (body != null) {
            out.write(body);
        }
        out.flush();
    }

    record Response(int status, Map<String, String> headers, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /** Reads one HTTP/1.1 response (Content-Length, chunked, or until close). */
    static Response read(InputStream raw) throws IOException {
        InputStream in = raw instanceof BufferedInputStream ? raw : new BufferedInputStream(raw);
        String statusLine = line(in);
        if (statusLine == null) {
            throw new IOException("the Runtime API closed the connection without answering");
        }
        String[] parts = statusLine.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/")) {
            throw new IOException("not an HTTP status line: " + statusLine);
        }
        int status = Integer.parseInt(parts[1]);
        Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (String header = line(in); header != null && !header.isEmpty(); header = line(in)) {
            int colon = header.indexOf(':');
            if (colon > 0) {
                headers.put(header.substring(0, colon).trim(), header.substring(colon + 1).trim());
            }
        }
        byte[] body;
        if (headers.getOrDefault("Transfer-Encoding", "").toLowerCase().contains("chunked")) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (String size = line(in); size != null; size = line(in)) {
                int n = Integer.parseInt(size.split(";")[0].trim(), 16);
                if (n == 0) {
                    while (true) {
                        String trailer = line(in);
                        if (trailer == null || trailer.isEmpty()) {
                            break;
                        }
                    }
                    break;
                }
                out.write(in.readNBytes(n));
                line(in);
            }
            body = out.toByteArray();
        } else if (headers.containsKey("Content-Length")) {
            int length = Integer.parseInt(headers.get("Content-Length").trim());
            body = in.readNBytes(length);
            if (body.length < length) {
                throw new IOException("the Runtime API closed the connection inside a body");
            }
        } else {
            body = in.readAllBytes();
        }
        return new Response(status, headers, body);
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n') {
                byte[] bytes = line.toByteArray();
                int length = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
            }
            line.write(b);
        }
        return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
    }
}
