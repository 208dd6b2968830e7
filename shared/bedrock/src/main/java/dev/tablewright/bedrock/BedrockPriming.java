package dev.tablewright.bedrock;

import dev.tablewright.agent.model.ModelFailure;
import dev.tablewright.agent.model.ModelMessage;
import dev.tablewright.agent.model.ModelRequest;
import dev.tablewright.agent.model.ModelStep;
import dev.tablewright.agent.model.ModelStreamListener;
import dev.tablewright.agent.model.ModelTool;
import dev.tablewright.agent.model.ToolCallRequest;
import dev.tablewright.json.Json;
import dev.tablewright.lambda.LoopbackResponder;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * SnapStart priming of the Bedrock path: one real ConverseStream call (request mapping, SigV4 signing, the JDK HTTP
 * client, event-stream decoding) answered by a {@link LoopbackResponder} with a canned stream. Signed with throwaway
 * credentials, so the default chain is not consulted before the snapshot (a restored function resolves its own).
 */
public final class BedrockPriming {

    private BedrockPriming() {
    }

    public static ModelStep run(String modelId, String region) throws IOException, ModelFailure {
        try (LoopbackResponder bedrock = LoopbackResponder.answering(ConverseStreamEvents.CONTENT_TYPE, Map.of(), answer())) {
            BedrockSettings loopback = new BedrockSettings(bedrock.uri(), region == null || region.isBlank() ? "us-east-1" : region,
                    modelId, Duration.ofSeconds(5));
            ModelRequest request = new ModelRequest(
                    List.of(new ModelMessage.System("priming"), new ModelMessage.User("hello"),
                            new ModelMessage.Assistant("", List.of(new ToolCallRequest("p0", "priming", "{}"))),
                            new ModelMessage.ToolResult("p0", "{\"ok\":true}")),
                    List.of(new ModelTool("priming", "priming", Json.object().put("type", "object"))),
                    16, Instant.now().plusSeconds(10), null);
            return new BedrockChatModel(loopback, StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDPRIMING", "priming")))
                    .stream(request, new ModelStreamListener() {
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

    private static byte[] answer() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(ConverseStreamEvents.event("messageStart", Json.object().put("role", "assistant")));
        out.writeBytes(ConverseStreamEvents.event("contentBlockDelta", Json.objectLiteral(
                "{\"contentBlockIndex\":0,\"delta\":{\"text\":\"primed\"}}")));
        out.writeBytes(ConverseStreamEvents.event("contentBlockStop", Json.objectLiteral("{\"contentBlockIndex\":0}")));
        out.writeBytes(ConverseStreamEvents.event("contentBlockStart", Json.objectLiteral(
                "{\"contentBlockIndex\":1,\"start\":{\"toolUse\":{\"toolUseId\":\"tooluse_p\",\"name\":\"priming\"}}}")));
        out.writeBytes(ConverseStreamEvents.event("contentBlockDelta", Json.objectLiteral(
                "{\"contentBlockIndex\":1,\"delta\":{\"toolUse\":{\"input\":\"{}\"}}}")));
        out.writeBytes(ConverseStreamEvents.event("contentBlockStop", Json.objectLiteral("{\"contentBlockIndex\":1}")));
        out.writeBytes(ConverseStreamEvents.event("messageStop", Json.objectLiteral("{\"stopReason\":\"tool_use\"}")));
        out.writeBytes(ConverseStreamEvents.event("metadata", Json.objectLiteral(
                "{\"usage\":{\"inputTokens\":1,\"outputTokens\":1,\"totalTokens\":2},\"metrics\":{\"latencyMs\":1}}")));
        return out.toByteArray();
    }
}
