package dev.tablewright.functions.chat.model;

import dev.tablewright.json.Json;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * SnapStart priming of the model path: one real streamed completion through openai-java and OkHttp, answered with a
 * canned reply by a socket on the loopback interface of this process. No model is called and no key is sent; what
 * the first real request would load (the client, OkHttp's connection and SSE reading, openai-java's request, chunk
 * and tool-call classes) is loaded before the snapshot instead of after every restore.
 */
public final class LoopbackModelPriming {

    private static final String ANSWER = String.join("",
            sse("{\"id\":\"p\",\"object\":\"chat.completion.chunk\",\"created\":0,\"model\":\"priming\",\"choices\":[{\"index\":0,"
                    + "\"delta\":{\"role\":\"assistant\",\"content\":\"primed\"},\"finish_reason\":null}]}"),
            sse("{\"id\":\"p\",\"object\":\"chat.completion.chunk\",\"created\":0,\"model\":\"priming\",\"choices\":[{\"index\":0,"
                    + "\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_p\",\"type\":\"function\",\"function\":{\"name\":\"priming\","
                    + "\"arguments\":\"{}\"}}]},\"finish_reason\":\"tool_calls\"}]}"),
            sse("{\"id\":\"p\",\"object\":\"chat.completion.chunk\",\"created\":0,\"model\":\"priming\",\"choices\":[],"
                    + "\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":1,\"total_tokens\":2}}"),
            "data: [DONE]\n\n");

    private LoopbackModelPriming() {
    }

    /** Streams one canned completion for {@code modelName}; returns what the model path made of it. */
    public static ModelStep run(String modelName) throws IOException, ModelFailure {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread answering = new Thread(() -> answer(server), "model-priming");
            answering.setDaemon(true);
            answering.start();
            ModelSettings loopback = new ModelSettings("http://127.0.0.1:" + server.getLocalPort() + "/v1", modelName,
                    "priming", Duration.ofSeconds(5));
            ModelRequest request = new ModelRequest(
                    List.of(new ModelMessage.System("priming"), new ModelMessage.User("hello")),
                    List.of(new ModelTool("priming", "priming", Json.object().put("type", "object"))),
                    16, Instant.now().plusSeconds(10), null);
            ModelStep step = new OpenAiChatModel(loopback).stream(request, new ModelStreamListener() {
                @Override
                public void textDelta(String delta) {
                }

                @Override
                public void toolCallStarted(String toolCallId, String toolName) {
                }

                @Override
                public void toolCallArgumentsDelta(String toolCallId, String delta) {
                }
            });
            answering.join(Duration.ofSeconds(5));
            return step;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while priming", e);
        }
    }

    private static void answer(ServerSocket server) {
        try (Socket socket = server.accept()) {
            readRequest(socket.getInputStream());
            byte[] body = ANSWER.getBytes(StandardCharsets.UTF_8);
            OutputStream out = socket.getOutputStream();
            out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: " + body.length
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
        } catch (IOException e) {
            // the client reports the failed stream; priming then fails loudly there
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

    private static String sse(String json) {
        return "data: " + json + "\n\n";
    }
}
