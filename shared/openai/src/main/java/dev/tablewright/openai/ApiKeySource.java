package dev.tablewright.openai;

import java.util.Map;

/**
 * Where the model's API key comes from: {@code OPENAI_API_KEY} locally; in AWS the secret named by
 * {@code OPENAI_API_KEY_SECRET_ARN} (read once per container, never logged).
 */
public interface ApiKeySource {

    String apiKey(Map<String, String> env);

    /** The environment variable only (local runs, tests, a scripted model that needs no key). */
    ApiKeySource ENVIRONMENT = env -> env.getOrDefault("OPENAI_API_KEY", "not-needed");
}
