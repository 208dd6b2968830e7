package dev.tablewright.openai;

import java.time.Duration;
import java.util.Map;

/**
 * Where the model is and how long to wait for it. {@code apiKey} is never logged: {@link #toString} masks it.
 *
 * @param idleTimeout how long the stream may stay silent before the attempt counts as timed out
 */
public record ModelSettings(String baseUrl, String model, String apiKey, Duration idleTimeout) {

    public static final String DEFAULT_BASE_URL = "https://api.openai.com/v1";
    public static final String DEFAULT_MODEL = "gpt-4o-mini";

    /** Locally: OPENAI_BASE_URL, OPENAI_MODEL, OPENAI_API_KEY; in AWS the key comes from {@link ApiKeySource}. */
    public static ModelSettings fromEnvironment(Map<String, String> env, ApiKeySource keys) {
        String baseUrl = env.getOrDefault("OPENAI_BASE_URL", DEFAULT_BASE_URL);
        String model = env.getOrDefault("OPENAI_MODEL", DEFAULT_MODEL);
        Duration idle = Duration.ofSeconds(Long.parseLong(env.getOrDefault("MODEL_IDLE_TIMEOUT_SECONDS", "30")));
        return new ModelSettings(baseUrl, model, keys.apiKey(env), idle);
    }

    @Override
    public String toString() {
        return "ModelSettings[baseUrl=" + baseUrl + ", model=" + model + ", apiKey=" + (apiKey == null || apiKey.isEmpty() ? "(none)" : "***")
                + ", idleTimeout=" + idleTimeout + "]";
    }
}
