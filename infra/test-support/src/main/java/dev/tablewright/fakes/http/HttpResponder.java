package dev.tablewright.fakes.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Writes one HTTP/1.1 response: whole ({@link #send}), or chunked piece by piece ({@link #startChunked},
 * {@link #chunk}, {@link #endChunked}), each piece flushed at once. {@link #abort()} closes the connection
 * mid-response without the final chunk: what a crashed or cut-off server looks like to the client.
 */
public final class HttpResponder {

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private boolean started;
    private boolean chunkedOpen;
    private boolean aborted;

    HttpResponder(Socket socket, InputStream in, OutputStream out) {
        if (!in.markSupported()) {
            throw new IllegalArgumentException("the request stream must support mark/reset");
        }
        this.socket = socket;
        this.in = in;
        this.out = out;
    }

    /**
     * Throws when the client has closed its side. A write to a closed peer can still succeed (the bytes go to the
     * socket buffer before the reset comes back), so a server that pauses mid-answer checks here instead: the client
     * sends nothing while it reads the response, so end-of-stream (or a reset) on the request side means it left.
     */
    public void failIfClientGone() throws IOException {
        int timeout = socket.getSoTimeout();
        socket.setSoTimeout(1);
        in.mark(1);
        try {
            if (in.read() == -1) {
                throw new IOException("the client closed the connection");
            }
            in.reset();
        } catch (SocketTimeoutException stillThere) {
            // nothing to read and no end of stream: the client is still reading
        } finally {
            socket.setSoTimeout(timeout);
        }
    }

    public void send(int status, Map<String, String> headers, byte[] body) throws IOException {
        head(status, headers, "Content-Length: " + body.length);
        out.write(body);
        out.flush();
    }

    public void sendText(int status, String contentType, String body) throws IOException {
        send(status, Map.of("Content-Type", contentType), body.getBytes(StandardCharsets.UTF_8));
    }

    public void startChunked(int status, Map<String, String> headers) throws IOException {
        head(status, headers, "Transfer-Encoding: chunked");
        out.flush();
        chunkedOpen = true;
    }

    public void chunk(byte[] bytes) throws IOException {
        if (!chunkedOpen) {
            throw new IllegalStateException("no chunked response is open");
        }
        if (bytes.length == 0) {
            return; // an empty chunk would end the body
        }
        out.write(HttpLines.ascii(Integer.toHexString(bytes.length) + "\r\n"));
        out.write(bytes);
        out.write(HttpLines.ascii("\r\n"));
        out.flush();
    }

    public void endChunked() throws IOException {
        chunkedOpen = false;
        out.write(HttpLines.ascii("0\r\n\r\n"));
        out.flush();
    }

    /** Closes the connection now, whatever state the response is in. */
    public void abort() {
        aborted = true;
        try {
            socket.setSoLinger(true, 0); // RST: the client sees a reset, not a clean end
            socket.close();
        } catch (IOException ignored) {
            // closing is all we wanted
        }
    }

    /**
     * Ends the connection mid-response once what was written has gone out (FIN, not RST): the peer reads every byte
     * sent, then an unfinished body. A cut whose bytes before it still arrive, whatever the peer's read timing.
     */
    public void hangUp() {
        aborted = true;
        try {
            out.flush();
            socket.shutdownOutput();
            socket.close();
        } catch (IOException ignored) {
            // closing is all we wanted
        }
    }

    public boolean isStarted() {
        return started;
    }

    boolean isAborted() {
        return aborted;
    }

    boolean isChunkedOpen() {
        return chunkedOpen;
    }

    private void head(int status, Map<String, String> headers, String framing) throws IOException {
        if (started) {
            throw new IllegalStateException("response already started");
        }
        started = true;
        StringBuilder head = new StringBuilder("HTTP/1.1 ").append(status).append(' ').append(reason(status)).append("\r\n");
        headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        head.append(framing).append("\r\n\r\n");
        out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
    }

    private static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 202 -> "Accepted";
            case 400 -> "Bad Request";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 413 -> "Payload Too Large";
            case 429 -> "Too Many Requests";
            case 500 -> "Internal Server Error";
            case 502 -> "Bad Gateway";
            case 503 -> "Service Unavailable";
            default -> "Status";
        };
    }
}
