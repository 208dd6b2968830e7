package dev.tablewright.functions.mcp;

import dev.tablewright.toolassembly.SecretSetting;
import dev.tablewright.logging.StructuredLog;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Map;
import java.util.Optional;

/**
 * The key material the MCP function seals 2026-07-28 {@code requestState}s with, read once at init as every secret is
 * ({@code SecretSetting}): the Secrets Manager secret the template generates ({@code MCP_REQUEST_STATE_SECRET_ARN};
 * only this function may read it), or the material itself in {@code MCP_REQUEST_STATE_KEY} (the local stack
 * generates one per run; tests set one). With neither, a key of this process alone: a retry then continues only in
 * the instance that asked, which is logged. The value never reaches a log line or an error message.
 */
final class RequestStateKey {

    static final String SECRET_ARN = "MCP_REQUEST_STATE_SECRET_ARN";
    static final String KEY = "MCP_REQUEST_STATE_KEY";
    private static final int MIN_BYTES = 32;

    private RequestStateKey() {
    }

    static byte[] fromEnvironment(Map<String, String> env) {
        return of(SecretSetting.read(env.get(KEY), env.get(SECRET_ARN), SECRET_ARN));
    }

    private static byte[] of(Optional<String> secret) {
        if (secret.isPresent()) {
            byte[] bytes = secret.get().strip().getBytes(StandardCharsets.UTF_8);
            if (bytes.length < MIN_BYTES) {
                throw new IllegalStateException(KEY + " (or the secret " + SECRET_ARN + " names) must hold at least "
                        + MIN_BYTES + " bytes of key material");
            }
            return bytes;
        }
        StructuredLog.of(RequestStateKey.class).warn("no requestState key configured: a key of this instance alone, so a "
                + "2026-07-28 retry continues only here", "variables", KEY + ", " + SECRET_ARN);
        byte[] random = new byte[MIN_BYTES];
        new SecureRandom().nextBytes(random);
        return random;
    }
}
