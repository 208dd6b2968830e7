package dev.tablewright.agentassembly;

import dev.tablewright.bedrock.BedrockChatModel;
import dev.tablewright.bedrock.BedrockPriming;
import dev.tablewright.bedrock.BedrockSettings;
import dev.tablewright.agent.model.ChatModel;
import dev.tablewright.agent.model.ModelFailure;
import dev.tablewright.openai.LoopbackModelPriming;
import dev.tablewright.openai.ModelSettings;
import dev.tablewright.openai.OpenAiChatModel;
import dev.tablewright.openai.SecretsManagerApiKeySource;

import java.io.IOException;
import java.util.Locale;
import java.util.Map;

/**
 * The model the chat runs on, chosen by {@code MODEL_PROVIDER}: {@code openai} (the default; an OpenAI-compatible
 * endpoint, {@code OPENAI_*}) or {@code bedrock} (Amazon Bedrock's ConverseStream, {@code BEDROCK_*}). Each provider's
 * wiring is its own nested class, first loaded when called, so a function loads the classes of the provider it
 * runs and none of the other's (docs/adr/0010-bedrock-without-the-sdk-client.md).
 */
public enum ModelProvider {

    /** An OpenAI-compatible endpoint ({@code OPENAI_*}). */
    OPENAI("openai"),
    /** Amazon Bedrock's ConverseStream ({@code BEDROCK_*}). */
    BEDROCK("aws.bedrock");

    private final String tracingName;

    ModelProvider(String tracingName) {
        this.tracingName = tracingName;
    }

    /** {@code gen_ai.provider.name} as the GenAI semantic conventions name this provider, for the turn's spans. */
    public String tracingName() {
        return tracingName;
    }

    /** {@code gen_ai.request.model}: the model this provider is configured to call. */
    public String modelName(Map<String, String> env) {
        return switch (this) {
            case OPENAI -> env.getOrDefault("OPENAI_MODEL", ModelSettings.DEFAULT_MODEL);
            case BEDROCK -> env.getOrDefault("BEDROCK_MODEL_ID", "unknown");
        };
    }

    /** The model from the environment (the provider's settings; a missing one is named in the exception). */
    public ChatModel model(Map<String, String> env) {
        return switch (this) {
            case OPENAI -> OpenAi.model(env);
            case BEDROCK -> Bedrock.model(env);
        };
    }

    /** SnapStart: one streamed call through this provider's client, answered on the loopback interface. */
    public void prime(Map<String, String> env) throws IOException, ModelFailure {
        switch (this) {
            case OPENAI -> OpenAi.prime(env);
            case BEDROCK -> Bedrock.prime(env);
        }
    }

    /** {@code MODEL_PROVIDER}: {@code openai} when unset. */
    public static ModelProvider fromEnvironment(Map<String, String> env) {
        String name = env.getOrDefault("MODEL_PROVIDER", "openai").strip().toLowerCase(Locale.ROOT);
        return switch (name) {
            case "", "openai" -> OPENAI;
            case "bedrock" -> BEDROCK;
            default -> throw new IllegalArgumentException("MODEL_PROVIDER is '" + name + "': use openai or bedrock");
        };
    }

    private static final class OpenAi {
        static ChatModel model(Map<String, String> env) {
            return new OpenAiChatModel(ModelSettings.fromEnvironment(env, new SecretsManagerApiKeySource()));
        }

        static void prime(Map<String, String> env) throws IOException, ModelFailure {
            LoopbackModelPriming.run(env.getOrDefault("OPENAI_MODEL", ModelSettings.DEFAULT_MODEL));
        }
    }

    private static final class Bedrock {
        static ChatModel model(Map<String, String> env) {
            return new BedrockChatModel(BedrockSettings.fromEnvironment(env));
        }

        static void prime(Map<String, String> env) throws IOException, ModelFailure {
            BedrockSettings settings = BedrockSettings.fromEnvironment(env);
            BedrockPriming.run(settings.modelId(), settings.region());
        }
    }
}
