package dev.tablewright.openai;

import dev.tablewright.agent.model.ModelFailure;
import dev.tablewright.agent.model.ModelMessage;
import dev.tablewright.agent.model.ModelRequest;
import dev.tablewright.agent.model.ModelStep;
import dev.tablewright.agent.model.ModelStreamListener;
import dev.tablewright.agent.model.ModelTool;

import dev.tablewright.json.Json;
import dev.tablewright.lambda.LoopbackResponder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * SnapStart priming of the model path: one real streamed completion through openai-java and OkHttp, answered with a
 * canned reply by a {@link LoopbackResponder}. No model is called and no key is sent; what
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
        try (LoopbackResponder model = LoopbackResponder.answering("text/event-stream", Map.of(),
                ANSWER.getBytes(StandardCharsets.UTF_8))) {
            ModelSettings loopback = new ModelSettings(model.uri() + "/v1", modelName, "priming", Duration.ofSeconds(5));
            ModelRequest request = new ModelRequest(
                    List.of(new ModelMessage.System("priming"), new ModelMessage.User("hello")),
                    List.of(new ModelTool("priming", "priming", Json.object().put("type", "object"))),
                    16, Instant.now().plusSeconds(10), null);
            return new OpenAiChatModel(loopback).stream(request, new ModelStreamListener() {
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
        }
    }

    private static String sse(String json) {
        return "data: " + json + "\n\n";
    }
}
