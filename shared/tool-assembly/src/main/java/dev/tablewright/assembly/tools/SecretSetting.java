package dev.tablewright.assembly.tools;

import dev.tablewright.logging.StructuredLog;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

import java.util.Map;
import java.util.Optional;

/**
 * A secret a function is given, read once at init: its value in {@code valueVariable} (the local stack, tests), else
 * the Secrets Manager secret {@code arnVariable} names (deployed: the template generates it and only that function
 * may read it). Neither, or a secret named by anything but its ARN (the template read off AWS resolves the reference
 * to the resource's logical id, which no Secrets Manager knows): empty, and the caller says what that means. The
 * value never reaches a log line or an error message.
 */
public final class SecretSetting {

    private static final StructuredLog LOG = StructuredLog.of(SecretSetting.class);

    private SecretSetting() {
    }

    public static Optional<String> read(Map<String, String> env, String valueVariable, String arnVariable) {
        String value = env.get(valueVariable);
        if (value != null && !value.isBlank()) {
            return Optional.of(value);
        }
        String arn = env.get(arnVariable);
        if (arn == null || arn.isBlank()) {
            return Optional.empty();
        }
        if (!arn.startsWith("arn:")) {
            LOG.warn(arnVariable + " is not an ARN: no secret is read", "value", arn);
            return Optional.empty();
        }
        try (SecretsManagerClient client = SecretsManagerClient.builder().httpClient(UrlConnectionHttpClient.create()).build()) {
            String secret = client.getSecretValue(b -> b.secretId(arn)).secretString();
            if (secret == null || secret.isEmpty()) {
                throw new IllegalStateException("the secret " + arnVariable + " names is empty");
            }
            return Optional.of(secret);
        } catch (RuntimeException e) {
            // the SDK's message names the ARN and the error code, never the value
            throw new IllegalStateException("the secret " + arnVariable + " names could not be read from Secrets Manager ("
                    + e.getClass().getSimpleName() + ")");
        }
    }
}
