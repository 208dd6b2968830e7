package dev.tablewright.lambda.streaming;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.http.stream.TransportResponseStream;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A function URL response streamed through the Runtime API:
 * <pre>
 * POST /2018-06-01/runtime/invocation/{id}/response HTTP/1.1
 * Lambda-Runtime-Function-Response-Mode: streaming
 * Transfer-Encoding: chunked
 * Content-Type: application/vnd.awslambda.http-integration-response
 * Trailer: Lambda-Runtime-Function-Error-Type, Lambda-Runtime-Function-Error-Body
 *
 * {"statusCode":200,"headers":{...},"cookies":[]} NUL×8 body...   (one HTTP chunk per flush)
 * 0
 * [Lambda-Runtime-Function-Error-Type: ..., Lambda-Runtime-Function-Error-Body: base64(...)]
 * </pre>
 * The POST starts at the first flush (the first byte); a failure before it is posted to
 * {@code /invocation/{id}/error} instead. A broken connection to the Runtime API means nobody is reading any more:
 * the stream turns gone. The states are {@link TransportResponseStream}'s; this class is the transport.
 */
final class RuntimeResponseStream extends TransportResponseStream {

    static final String CONTENT_TYPE = "application/vnd.awslambda.http-integration-response";
    private static final byte[] DELIMITER = new byte[8];
    private static final StructuredLog LOG = StructuredLog.of(RuntimeResponseStream.class);

    private final RuntimeApiClient client;
    private final String requestId;
    private final CompletableFuture<RuntimeApiClient.Response> answer = new CompletableFuture<>();
    private Socket socket;
    private OutputStream out;

    RuntimeResponseStream(RuntimeApiClient client, String requestId) {
        this.client = client;
        this.requestId = requestId;
    }

    /** The status and headers travel in the body, ahead of it: the prelude, sent with the first flush. */
    @Override
    protected byte[] sendHead(int statusCode, Map<String, String> headers) {
        return prelude(statusCode, headers);
    }

    @Override
    protected void sendBody(byte[] bytes) throws IOException {
        open();
        sendChunk(bytes);
    }

    @Override
    protected void endNormally(boolean started, boolean clientGone) {
        try {
            if (!clientGone) {
                open();
                if (!started) {
                    sendChunk(prelude(200, Map.of())); // a handler that wrote nothing answers an empty 200
                }
                out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                awaitAnswer();
            }
        } catch (IOException e) {
            LOG.warn("could not end the streamed response", "cause", e.getMessage());
        } finally {
            closeSocket();
        }
    }

    @Override
    protected void endFailed(String errorType, String message, boolean started, boolean clientGone) {
        try {
            if (socket == null) {
                // not a byte sent yet: the whole invocation fails (the function URL answers 502)
                client.invocationError(requestId, errorType, message);
            } else if (!clientGone) {
                out.write(("0\r\n" + RuntimeApiClient.ERROR_TYPE + ": " + headerSafe(errorType) + "\r\n"
                        + RuntimeApiClient.ERROR_BODY + ": " + RuntimeApiClient.base64ErrorDocument(errorType, message)
                        + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                awaitAnswer();
            }
        } catch (IOException e) {
            LOG.warn("could not report the failure to the Runtime API", "errorType", errorType, "cause", e.getMessage());
        } finally {
            closeSocket();
        }
    }

    private static byte[] prelude(int statusCode, Map<String, String> headers) {
        ObjectNode prelude = Json.object().put("statusCode", statusCode);
        ObjectNode headerNode = prelude.putObject("headers");
        ArrayNode cookies = prelude.putArray("cookies");
        headers.forEach((name, value) -> {
            if (name.equalsIgnoreCase("set-cookie")) {
                cookies.add(value); // function URLs take cookies apart from the headers
            } else {
                headerNode.put(name, value);
            }
        });
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(Json.write(prelude).getBytes(StandardCharsets.UTF_8));
        bytes.writeBytes(DELIMITER);
        return bytes.toByteArray();
    }

    private void open() throws IOException {
        if (socket != null) {
            return;
        }
        socket = client.connect();
        out = new BufferedOutputStream(socket.getOutputStream(), 16 * 1024);
        out.write(("POST " + RuntimeApiClient.VERSION + "/runtime/invocation/" + requestId + "/response HTTP/1.1\r\n"
                + "Host: " + client.host() + "\r\n"
                + "Lambda-Runtime-Function-Response-Mode: streaming\r\n"
                + "Transfer-Encoding: chunked\r\n"
                + "Content-Type: " + CONTENT_TYPE + "\r\n"
                + "Trailer: " + RuntimeApiClient.ERROR_TYPE + ", " + RuntimeApiClient.ERROR_BODY + "\r\n"
                + "Connection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        // The Runtime API answers only after the body's end; anything earlier (an answer, EOF, a reset) means the
        // stream is over for whoever was reading it.
        Socket watched = socket;
        Thread.ofVirtual().name("runtime-api-watch").start(() -> {
            try {
                answer.complete(RuntimeApiClient.read(watched.getInputStream()));
            } catch (IOException e) {
                answer.completeExceptionally(e);
            }
            clientLeft("the Runtime API ended the stream early");
        });
    }

    private void sendChunk(byte[] bytes) throws IOException {
        out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.write(bytes);
        out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    private void awaitAnswer() {
        try {
            RuntimeApiClient.Response response = answer.get(30, TimeUnit.SECONDS);
            if (response.status() != 202) {
                LOG.warn("the Runtime API refused the streamed response", "status", response.status(), "body", response.text());
            }
        } catch (Exception e) {
            LOG.warn("no answer from the Runtime API to the streamed response", "cause", String.valueOf(e.getMessage()));
        }
    }

    private void closeSocket() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    private static String headerSafe(String value) {
        return value == null ? "Unhandled" : value.replaceAll("[\\r\\n]", " ");
    }
}
