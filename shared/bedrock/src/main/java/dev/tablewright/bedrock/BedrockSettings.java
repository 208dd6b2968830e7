package dev.tablewright.bedrock;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * Which Bedrock model the chat uses and where Bedrock Runtime is.
 *
 * @param endpoint    Bedrock Runtime's base URI ({@code https://bedrock-runtime.<region>.amazonaws.com} unless set)
 * @param region      the region requests are signed for
 * @param modelId     a model id ({@code amazon.nova-lite-v1:0}) or an inference profile id or ARN
 *                    ({@code us.anthropic.claude-…})
 * @param idleTimeout how long the stream may stay silent before the attempt counts as timed out
 */
public record BedrockSettings(URI endpoint, String region, String modelId, Duration idleTimeout) {

    public BedrockSettings {
        if (modelId == null || modelId.isBlank()) {
            throw new IllegalArgumentException("BEDROCK_MODEL_ID is not set: name the Bedrock model or inference profile the chat uses");
        }
        if (region == null || region.isBlank()) {
            throw new IllegalArgumentException("AWS_REGION is not set: Bedrock requests are signed for a region");
        }
        String path = endpoint.getPath();
        if (path != null && path.endsWith("/")) {
            endpoint = URI.create(endpoint.toString().substring(0, endpoint.toString().length() - 1));
        }
    }

    /**
     * {@code BEDROCK_MODEL_ID} (required), {@code AWS_REGION} (Lambda sets it; else {@code AWS_DEFAULT_REGION}),
     * {@code BEDROCK_ENDPOINT} (tests and the local stack point it at a stand-in) and
     * {@code MODEL_IDLE_TIMEOUT_SECONDS} (default 30, as for the OpenAI model).
     */
    public static BedrockSettings fromEnvironment(Map<String, String> env) {
        String region = env.getOrDefault("AWS_REGION", env.get("AWS_DEFAULT_REGION"));
        String endpoint = env.get("BEDROCK_ENDPOINT");
        if (endpoint == null || endpoint.isBlank()) {
            endpoint = "https://bedrock-runtime." + region + ".amazonaws.com";
        }
        Duration idle = Duration.ofSeconds(Long.parseLong(env.getOrDefault("MODEL_IDLE_TIMEOUT_SECONDS", "30")));
        return new BedrockSettings(URI.create(endpoint), region, env.get("BEDROCK_MODEL_ID"), idle);
    }
}
