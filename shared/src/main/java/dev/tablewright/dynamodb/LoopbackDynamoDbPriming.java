package dev.tablewright.dynamodb;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

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
 * SnapStart priming of the DynamoDB path: one GetItem through a client built like the function's own, answered with
 * a canned item by a socket on the loopback interface of this process. Nothing reaches DynamoDB (fixed dummy
 * credentials, a local endpoint); what the first real call would load (the request marshallers, SigV4 signing, the
 * HTTP client, response unmarshalling, the retry and endpoint code) is loaded before the snapshot instead.
 */
final class LoopbackDynamoDbPriming {

    private static final byte[] ITEM = "{\"Item\":{\"pk\":{\"S\":\"priming\"},\"n\":{\"N\":\"1\"}}}".getBytes(StandardCharsets.UTF_8);

    private LoopbackDynamoDbPriming() {
    }

    static Map<String, AttributeValue> run(Map<String, String> env) {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread answering = new Thread(() -> answer(server), "dynamodb-priming");
            answering.setDaemon(true);
            answering.start();
            Map<String, String> local = new java.util.HashMap<>(env);
            local.remove("AWS_ACCESS_KEY_ID"); // the dummy credentials of a local endpoint, never the role's
            local.remove("AWS_SECRET_ACCESS_KEY");
            local.remove("AWS_SESSION_TOKEN");
            DynamoDbClients.Settings settings = new DynamoDbClients.Settings(Duration.ofSeconds(2), Duration.ofSeconds(2),
                    Duration.ofSeconds(5), 1);
            try (DynamoDbClient client = DynamoDbClients.build(URI.create("http://127.0.0.1:" + server.getLocalPort()), local, settings)) {
                Map<String, AttributeValue> item = client.getItem(b -> b.tableName("priming")
                        .key(Map.of("pk", AttributeValue.fromS("priming"))).consistentRead(true)).item();
                answering.join(Duration.ofSeconds(5));
                return item;
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("DynamoDB priming failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while priming", e);
        }
    }

    private static void answer(ServerSocket server) {
        try (Socket socket = server.accept()) {
            readRequest(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/x-amz-json-1.0\r\nx-amzn-RequestId: priming\r\n"
                    + "Content-Length: " + ITEM.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(ITEM);
            out.flush();
        } catch (IOException e) {
            // the client reports the failed call; priming then fails loudly there
        }
    }

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
