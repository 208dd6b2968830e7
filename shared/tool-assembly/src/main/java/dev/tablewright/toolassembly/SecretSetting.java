package dev.tablewright.toolassembly;

import dev.tablewright.logging.StructuredLog;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

import java.util.Optional;

/**
 * A secret a function is given, read once at init: its value (from a variable of the local stack or a test), else
 * the Secrets Manager secret a variable names by ARN (deployed: the template generates it and only that function
 * may read it). Neither, or a secret named by anything but its ARN (the template read off AWS resolves the reference
 * to the resource's logical id, which no Secrets Manager knows): empty, and the caller says what that means. The
 * value never reaches a log line or an error message.
 */
public final class SecretSetting {

    private static final StructuredLog LOG = StructuredLog.of(SecretSetting.class);

    private SecretSetting() {
    }

    /**
     * @param value       the secret itself, when given (null or blank: not given)
     * @param arn         the secret's ARN, when given
     * @param arnVariable the variable {@code arn} came from, to name it in a warning or an error
     */
    public static Optional<String> read(String value, String arn, String arnVariable) {
        if (value != null && !value.isBlank()) {
            return Optional.of(value);
        }
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
