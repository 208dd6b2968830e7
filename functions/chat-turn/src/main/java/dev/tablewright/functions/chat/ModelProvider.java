package dev.tablewright.functions.chat;

import dev.tablewright.bedrock.BedrockChatModel;
import dev.tablewright.bedrock.BedrockPriming;
import dev.tablewright.bedrock.BedrockSettings;
import dev.tablewright.chat.model.ChatModel;
import dev.tablewright.chat.model.ModelFailure;
import dev.tablewright.openai.LoopbackModelPriming;
import dev.tablewright.openai.ModelSettings;
import dev.tablewright.openai.OpenAiChatModel;
import dev.tablewright.openai.SecretsManagerApiKeySource;

import java.io.IOException;
import java.util.Locale;
import java.util.Map;

/**
 * The model the chat runs on, chosen by {@code MODEL_PROVIDER}: {@code openai} (the default; an OpenAI-compatible
 * endpoint, {@code OPENAI_*}) or {@code bedrock} (Amazon Bedrock's ConverseStream, {@code BEDROCK_*}). Each constant's
 * body is its own class, so a function loads the classes of the provider it runs and never the other's.
 */
public enum ModelProvider {

    OPENAI {
        @Override
        public ChatModel model(Map<String, String> env) {
            return new OpenAiChatModel(ModelSettings.fromEnvironment(env, new SecretsManagerApiKeySource()));
        }

        @Override
        public void prime(Map<String, String> env) throws IOException, ModelFailure {
            LoopbackModelPriming.run(env.getOrDefault("OPENAI_MODEL", ModelSettings.DEFAULT_MODEL));
        }
    },

    BEDROCK {
        @Override
        public ChatModel model(Map<String, String> env) {
            return new BedrockChatModel(BedrockSettings.fromEnvironment(env));
        }

        @Override
        public void prime(Map<String, String> env) throws IOException, ModelFailure {
            BedrockSettings settings = BedrockSettings.fromEnvironment(env);
            BedrockPriming.run(settings.modelId(), settings.region());
        }
    };

    /** The model from the environment (the provider's settings; a missing one is named in the exception). */
    public abstract ChatModel model(Map<String, String> env);

    /** SnapStart: one streamed call through this provider's client, answered on the loopback interface. */
    public abstract void prime(Map<String, String> env) throws IOException, ModelFailure;

    /** {@code MODEL_PROVIDER}: {@code openai} when unset. */
    public static ModelProvider fromEnvironment(Map<String, String> env) {
        String name = env.getOrDefault("MODEL_PROVIDER", "openai").strip().toLowerCase(Locale.ROOT);
        return switch (name) {
            case "", "openai" -> OPENAI;
            case "bedrock" -> BEDROCK;
            default -> throw new IllegalArgumentException("MODEL_PROVIDER is '" + name + "': use openai or bedrock");
        };
    }
}
