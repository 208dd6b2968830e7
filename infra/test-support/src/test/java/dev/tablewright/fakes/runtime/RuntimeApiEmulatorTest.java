package dev.tablewright.fakes.runtime;

import dev.tablewright.fakes.http.HttpLines;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The emulator at the byte level: what a runtime sends, written by hand on a socket. */
class RuntimeApiEmulatorTest {

    private RuntimeApiEmulator emulator;

    @BeforeEach
    void start() throws IOException {
        emulator = RuntimeApiEmulator.start("TestFunction");
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    @Test
    void nextCarriesTheDocumentedHeaders() throws Exception {
        long before = System.currentTimeMillis();
        Invocation invocation = emulator.invoke("{\"a\":1}".getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(7));
        try (Connection c = new Connection(emulator)) {
            Response next = c.exchange("GET /2018-06-01/runtime/invocation/next HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals(200, next.status);
            assertEquals("{\"a\":1}", next.body);
            assertEquals(invocation.requestId(), next.headers.get("Lambda-Runtime-Aws-Request-Id"));
            long deadline = Long.parseLong(next.headers.get("Lambda-Runtime-Deadline-Ms"));
            assertTrue(deadline >= before + 7000 && deadline <= System.currentTimeMillis() + 7000);
            assertEquals("arn:aws:lambda:us-east-1:000000000000:function:TestFunction", next.headers.get("Lambda-Runtime-Invoked-Function-Arn"));
            assertTrue(next.headers.get("Lambda-Runtime-Trace-Id").matches("Root=1-[0-9a-f]{8}-[0-9a-f]{24};Parent=[0-9a-f]{16};Sampled=0"));

            Response posted = c.exchange("POST /2018-06-01/runtime/invocation/" + invocation.requestId()
                    + "/response HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nok");
            assertEquals(202, posted.status);
            InvocationResult result = invocation.await(Duration.ofSeconds(5));
            assertEquals("ok", result.bodyText());
            assertFalse(result.streamed());

            // answered once only
            Response again = c.exchange("POST /2018-06-01/runtime/invocation/" + invocation.requestId()
                    + "/response HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nok");
            assertEquals(400, again.status);
        }
    }

    @Test
    void aStreamedResponseIsSeenChunkByChunkWithItsErrorTrailers() throws Exception {
        Invocation invocation = emulator.invoke("{}");
        try (Connection c = new Connection(emulator)) {
            c.exchange("GET /2018-06-01/runtime/invocation/next HTTP/1.1\r\nHost: x\r\n\r\n");
            c.send("POST /2018-06-01/runtime/invocation/" + invocation.requestId() + "/response HTTP/1.1\r\nHost: x\r\n"
                    + "Lambda-Runtime-Function-Response-Mode: streaming\r\nTransfer-Encoding: chunked\r\n"
                    + "Content-Type: application/vnd.awslambda.http-integration-response\r\n"
                    + "Trailer: Lambda-Runtime-Function-Error-Type, Lambda-Runtime-Function-Error-Body\r\n\r\n");
            c.send("5\r\nfirst\r\n");
            Chunk first = invocation.nextChunk(Duration.ofSeconds(5));
            assertNotNull(first);
            assertEquals("first", first.text());
            assertFalse(invocation.isDone(), "the first chunk is visible while the response is still open");
            assertNull(invocation.nextChunk(Duration.ofMillis(50)));
            c.send("6\r\nsecond\r\n");
            assertEquals("second", invocation.nextChunk(Duration.ofSeconds(5)).text());
            String errorBody = Base64.getEncoder().encodeToString("{\"errorMessage\":\"model gone\",\"errorType\":\"ModelError\"}".getBytes(StandardCharsets.UTF_8));
            c.send("0\r\nLambda-Runtime-Function-Error-Type: ModelError\r\nLambda-Runtime-Function-Error-Body: " + errorBody + "\r\n\r\n");
            assertEquals(202, c.read().status);
            InvocationResult result = invocation.await(Duration.ofSeconds(5));
            assertTrue(result.streamed());
            assertEquals("firstsecond", result.bodyText());
            assertEquals("ModelError", result.errorType());
            assertEquals("{\"errorMessage\":\"model gone\",\"errorType\":\"ModelError\"}", result.errorBody());
            assertFalse(result.succeeded());
            assertTrue(first.arrivedNanos() < invocation.chunks().get(1).arrivedNanos());
        }
    }

    /** A runtime that dies mid-response (its process killed): the invocation fails as Lambda's does, with what arrived. */
    @Test
    void aRuntimeGoneMidResponseFailsItsInvocationWithAnExitError() throws Exception {
        Invocation invocation = emulator.invoke("{}");
        try (Connection c = new Connection(emulator)) {
            c.exchange("GET /2018-06-01/runtime/invocation/next HTTP/1.1\r\nHost: x\r\n\r\n");
            c.send("POST /2018-06-01/runtime/invocation/" + invocation.requestId() + "/response HTTP/1.1\r\nHost: x\r\n"
                    + "Lambda-Runtime-Function-Response-Mode: streaming\r\nTransfer-Encoding: chunked\r\n\r\n");
            c.send("7\r\npartial\r\n");
            assertEquals("partial", invocation.nextChunk(Duration.ofSeconds(5)).text());
        } // the connection ends inside the chunked body, as a killed process's does
        InvocationResult result = invocation.await(Duration.ofSeconds(5));
        assertEquals(InvocationResult.Outcome.ERROR, result.outcome());
        assertEquals(RuntimeApiEmulator.EXIT_ERROR, result.errorType());
        assertEquals("partial", result.bodyText());
        assertFalse(result.succeeded());
    }

    @Test
    void invocationAndInitErrorsAreRecorded() throws Exception {
        Invocation invocation = emulator.invoke("{}");
        try (Connection c = new Connection(emulator)) {
            c.exchange("GET /2018-06-01/runtime/invocation/next HTTP/1.1\r\nHost: x\r\n\r\n");
            String body = "{\"errorMessage\":\"bad\",\"errorType\":\"Oops\"}";
            Response posted = c.exchange("POST /2018-06-01/runtime/invocation/" + invocation.requestId()
                    + "/error HTTP/1.1\r\nHost: x\r\nLambda-Runtime-Function-Error-Type: Oops\r\nContent-Length: "
                    + body.length() + "\r\n\r\n" + body);
            assertEquals(202, posted.status);
            InvocationResult result = invocation.await(Duration.ofSeconds(5));
            assertEquals(InvocationResult.Outcome.ERROR, result.outcome());
            assertEquals("Oops", result.errorType());

            Invocation queued = emulator.invoke("{}");
            String init = "{\"errorMessage\":\"no config\",\"errorType\":\"Runtime.InitError\"}";
            assertEquals(202, c.exchange("POST /2018-06-01/runtime/init/error HTTP/1.1\r\nHost: x\r\n"
                    + "Lambda-Runtime-Function-Error-Type: Runtime.InitError\r\nContent-Length: " + init.length() + "\r\n\r\n" + init).status);
            assertEquals("Runtime.InitError", emulator.initError().get().errorType());
            assertEquals(InvocationResult.Outcome.INIT_ERROR, queued.await(Duration.ofSeconds(5)).outcome());

            assertEquals(404, c.exchange("GET /2018-06-01/runtime/nothing HTTP/1.1\r\nHost: x\r\n\r\n").status);
            assertEquals(400, c.exchange("POST /2018-06-01/runtime/invocation/nope/response HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n").status);
        }
    }

    @Test
    void integrationResponsePreludeIsSplitAtTheEightNuls() throws Exception {
        byte[] raw = ("{\"statusCode\":201,\"headers\":{\"x-a\":\"b\"},\"cookies\":[\"c=1\"]}" + "\0".repeat(8) + "body")
                .getBytes(StandardCharsets.UTF_8);
        HttpIntegrationResponse parsed = HttpIntegrationResponse.parse(raw);
        assertEquals(201, parsed.statusCode());
        assertEquals(Map.of("x-a", "b"), parsed.headers());
        assertEquals("c=1", parsed.cookies().getFirst());
        assertArrayEquals("body".getBytes(StandardCharsets.UTF_8), parsed.body());
    }

    private record Response(int status, Map<String, String> headers, String body) {
    }

    /** A keep-alive connection speaking raw HTTP/1.1. */
    private static final class Connection implements AutoCloseable {
        private final Socket socket;
        private final OutputStream out;
        private final InputStream in;

        Connection(RuntimeApiEmulator emulator) throws IOException {
            String[] hostPort = emulator.address().split(":");
            socket = new Socket(hostPort[0], Integer.parseInt(hostPort[1]));
            socket.setSoTimeout(10_000);
            out = socket.getOutputStream();
            in = new BufferedInputStream(socket.getInputStream());
        }

        void send(String text) throws IOException {
            out.write(text.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        }

        Response exchange(String request) throws IOException {
            send(request);
            return read();
        }

        Response read() throws IOException {
            String status = HttpLines.readLine(in);
            Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            HttpLines.readHeaders(in, headers);
            int length = Integer.parseInt(headers.getOrDefault("Content-Length", "0"));
            String body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
            return new Response(Integer.parseInt(status.split(" ")[1]), headers, body);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
