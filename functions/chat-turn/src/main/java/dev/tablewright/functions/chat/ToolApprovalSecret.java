package dev.tablewright.functions.chat;

import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

import java.util.Map;
import java.util.Optional;

/**
 * The secret that signs tool approvals: {@code TOOL_APPROVAL_SECRET} (the local stack, from the environment), else the
 * Secrets Manager secret {@code TOOL_APPROVAL_SECRET_ARN} names (deployed: the template generates it and only the chat
 * function may read it), read once per container. Neither: approvals are not signed (still bound by the stored call).
 * The value never reaches a log line or an error message.
 */
final class ToolApprovalSecret {

    private static final dev.tablewright.logging.StructuredLog LOG = dev.tablewright.logging.StructuredLog.of(ToolApprovalSecret.class);
    static final String VALUE_ENV = "TOOL_APPROVAL_SECRET";
    static final String ARN_ENV = "TOOL_APPROVAL_SECRET_ARN";

    private ToolApprovalSecret() {
    }

    static Optional<String> fromEnvironment(Map<String, String> env) {
        String value = env.get(VALUE_ENV);
        if (value != null && !value.isEmpty()) {
            return Optional.of(value);
        }
        String arn = env.get(ARN_ENV);
        if (arn == null || arn.isBlank()) {
            return Optional.empty();
        }
        if (!arn.startsWith("arn:")) {
            // the template's reference resolved off AWS (the resource's logical id): there is no secret to read here
            LOG.warn("TOOL_APPROVAL_SECRET_ARN is not an ARN; tool approvals are not signed", "value", arn);
            return Optional.empty();
        }
        try (SecretsManagerClient client = SecretsManagerClient.builder().httpClient(UrlConnectionHttpClient.create()).build()) {
            String secret = client.getSecretValue(b -> b.secretId(arn)).secretString();
            if (secret == null || secret.isEmpty()) {
                throw new IllegalStateException("the tool approval secret is empty");
            }
            return Optional.of(secret);
        } catch (RuntimeException e) {
            // the SDK's message names the ARN and the error code, never the value
            throw new IllegalStateException("the tool approval secret could not be read from Secrets Manager ("
                    + e.getClass().getSimpleName() + ")");
        }
    }
}
