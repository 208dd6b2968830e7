package dev.tablewright.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.json.Json;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

import java.util.Map;

/**
 * The API key from AWS Secrets Manager when {@code OPENAI_API_KEY_SECRET_ARN} is set (a plain-text secret, or a
 * JSON secret with an {@code apiKey} or {@code OPENAI_API_KEY} field), else from the environment.
 * The secret is read once per container; the value never reaches a log line or an error message.
 */
public final class SecretsManagerApiKeySource implements ApiKeySource {

    @Override
    public String apiKey(Map<String, String> env) {
        String arn = env.get("OPENAI_API_KEY_SECRET_ARN");
        if (arn == null || arn.isBlank()) {
            return ENVIRONMENT.apiKey(env);
        }
        try (SecretsManagerClient client = SecretsManagerClient.builder()
                .httpClient(UrlConnectionHttpClient.create()).build()) {
            String secret = client.getSecretValue(b -> b.secretId(arn)).secretString();
            return fromSecret(secret);
        } catch (RuntimeException e) {
            // the SDK's message names the ARN and the error code, never the value
            throw new IllegalStateException("the model's API key could not be read from Secrets Manager ("
                    + e.getClass().getSimpleName() + ")");
        }
    }

    static String fromSecret(String secret) {
        String trimmed = secret == null ? "" : secret.strip();
        if (trimmed.startsWith("{")) {
            try {
                JsonNode node = Json.parse(trimmed);
                for (String field : new String[]{"apiKey", "OPENAI_API_KEY", "api_key"}) {
                    if (node.hasNonNull(field)) {
                        return node.get(field).asText();
                    }
                }
            } catch (Exception e) {
                throw new IllegalStateException("the model's API key secret is JSON without an apiKey field");
            }
            throw new IllegalStateException("the model's API key secret is JSON without an apiKey field");
        }
        return trimmed;
    }
}
