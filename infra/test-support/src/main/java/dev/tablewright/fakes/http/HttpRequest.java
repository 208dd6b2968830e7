package dev.tablewright.fakes.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * One HTTP/1.1 request as read off the socket. The body is read on demand, chunk by chunk when the client
 * sends {@code Transfer-Encoding: chunked} (so a streaming client's pieces can be seen as they arrive), and the
 * chunked trailers are kept, which the JDK's built-in server drops.
 */
public final class HttpRequest {

    private final String method;
    private final String target;
    private final Map<String, String> headers;
    private final InputStream in;
    private final boolean chunked;
    private long remaining;
    private boolean bodyEnded;
    private final Map<String, String> trailers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

    HttpRequest(String method, String target, Map<String, String> headers, InputStream in) throws IOException {
        this.method = method;
        this.target = target;
        this.headers = headers;
        this.in = in;
        String te = headers.getOrDefault("Transfer-Encoding", "");
        this.chunked = te.toLowerCase().contains("chunked");
        if (!chunked) {
            String length = headers.get("Content-Length");
            try {
                this.remaining = length == null ? 0 : Long.parseLong(length.trim());
            } catch (NumberFormatException e) {
                throw new IOException("bad Content-Length: " + length);
            }
            this.bodyEnded = remaining == 0;
        }
    }

    public String method() {
        return method;
    }

    /** The request target as sent (path and query). */
    public String target() {
        return target;
    }

    public String path() {
        int q = target.indexOf('?');
        return q < 0 ? target : target.substring(0, q);
    }

    /** Header lookup is case-insensitive. */
    public Map<String, String> headers() {
        return headers;
    }

    public String header(String name) {
        return headers.get(name);
    }

    public boolean isChunked() {
        return chunked;
    }

    /**
     * The next piece of the body: one HTTP chunk of a chunked body, or what is available of a fixed-length one;
     * null at the end of the body (after which {@link #trailers()} holds the trailers, if any).
     */
    public byte[] nextChunk() throws IOException {
        if (bodyEnded) {
            return null;
        }
        if (!chunked) {
            byte[] buffer = new byte[(int) Math.min(remaining, 64 * 1024)];
            int n = in.read(buffer);
            if (n < 0) {
                throw new IOException("connection closed with " + remaining + " body bytes missing");
            }
            remaining -= n;
            bodyEnded = remaining == 0;
            return n == buffer.length ? buffer : java.util.Arrays.copyOf(buffer, n);
        }
        String sizeLine = HttpLines.readLine(in);
        if (sizeLine == null) {
            throw new IOException("connection closed inside a chunked body");
        }
        int semicolon = sizeLine.indexOf(';');
        String hex = (semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim();
        int size;
        try {
            size = Integer.parseInt(hex, 16);
        } catch (NumberFormatException e) {
            throw new IOException("bad chunk size line: " + sizeLine);
        }
        if (size == 0) {
            HttpLines.readHeaders(in, trailers);
            bodyEnded = true;
            return null;
        }
        byte[] chunk = in.readNBytes(size);
        if (chunk.length < size) {
            throw new IOException("connection closed inside a chunk");
        }
        String crlf = HttpLines.readLine(in);
        if (crlf == null || !crlf.isEmpty()) {
            throw new IOException("chunk not followed by CRLF");
        }
        return chunk;
    }

    /** The whole (remaining) body. */
    public byte[] body() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] chunk = nextChunk(); chunk != null; chunk = nextChunk()) {
            out.writeBytes(chunk);
        }
        return out.toByteArray();
    }

    public String bodyText() throws IOException {
        return new String(body(), StandardCharsets.UTF_8);
    }

    public boolean bodyEnded() {
        return bodyEnded;
    }

    /** Trailers of a chunked body; complete once the body has been read to its end. */
    public Map<String, String> trailers() {
        return trailers;
    }
}
