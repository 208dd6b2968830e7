package dev.tablewright.functions.mcp;

import dev.tablewright.logging.StructuredLog;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Map;

/**
 * The key material the MCP function seals 2026-07-28 {@code requestState}s with, read once at init: the Secrets
 * Manager secret the template generates ({@code MCP_REQUEST_STATE_SECRET_ARN}; only this function may read it), or
 * the material itself in {@code MCP_REQUEST_STATE_KEY} (the local stack generates one per run; tests set one). With
 * neither (or a secret named by anything but its ARN), a key of this process alone: a retry then continues only in
 * the instance that asked, which is logged.
 * The value never reaches a log line or an error message.
 */
final class RequestStateKey {

    static final String SECRET_ARN = "MCP_REQUEST_STATE_SECRET_ARN";
    static final String KEY = "MCP_REQUEST_STATE_KEY";
    private static final int MIN_BYTES = 32;

    private RequestStateKey() {
    }

    static byte[] fromEnvironment(Map<String, String> env) {
        String key = env.get(KEY);
        if (key != null && !key.isBlank()) {
            return material(key, KEY);
        }
        String arn = env.get(SECRET_ARN);
        // only an ARN names a secret to read: the template read locally (the process tests, the cold-start harness)
        // resolves !Ref McpRequestStateSecret to the resource's logical id, which no Secrets Manager knows
        if (arn != null && arn.startsWith("arn:")) {
            try (SecretsManagerClient client = SecretsManagerClient.builder().httpClient(UrlConnectionHttpClient.create()).build()) {
                return material(client.getSecretValue(b -> b.secretId(arn)).secretString(), SECRET_ARN);
            } catch (RuntimeException e) {
                // the SDK's message names the ARN and the error code, never the value
                throw new IllegalStateException("the requestState key could not be read from Secrets Manager ("
                        + e.getClass().getSimpleName() + ")");
            }
        }
        StructuredLog.of(RequestStateKey.class).warn("no requestState key configured: a key of this instance alone, so a "
                + "2026-07-28 retry continues only here", "variables", KEY + ", " + SECRET_ARN);
        byte[] random = new byte[MIN_BYTES];
        new SecureRandom().nextBytes(random);
        return random;
    }

    private static byte[] material(String value, String variable) {
        byte[] bytes = value.strip().getBytes(StandardCharsets.UTF_8);
        if (bytes.length < MIN_BYTES) {
            throw new IllegalStateException(variable + " must hold at least " + MIN_BYTES + " bytes of key material");
        }
        return bytes;
    }
}
