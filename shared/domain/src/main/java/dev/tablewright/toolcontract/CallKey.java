package dev.tablewright.toolcontract;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * What makes two invocations the same tool call: the tool, the user, the conversation, the call's id and what it was
 * given (its arguments and the working config). The chat's {@code Invoke} of a tool can run twice for one call (the
 * SDK retries it after a throttle, a 5xx or a lost answer; a resumed turn runs a call again), so a tool with an effect
 * keys the effect by this: the second run finds the first's and answers it, creating nothing more. Arguments are part
 * of it because a scripted or replayed conversation may give two different calls the same id.
 *
 * @param digest a SHA-256 of the call's identity, in hex
 */
public record CallKey(String digest) {

    /** The call's key; empty when the invocation names no user, conversation or call id (a bare invocation). */
    public static Optional<CallKey> of(ToolInvocation invocation) {
        if (blank(invocation.userId()) || blank(invocation.conversationId()) || blank(invocation.toolCallId())) {
            return Optional.empty();
        }
        String identity = String.join("\n", invocation.tool(), invocation.userId(), invocation.conversationId(),
                invocation.toolCallId(), String.valueOf(invocation.arguments()), String.valueOf(invocation.workingConfig()));
        try {
            return Optional.of(new CallKey(HexFormat.of().formatHex(
                    MessageDigest.getInstance("SHA-256").digest(identity.getBytes(StandardCharsets.UTF_8)))));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An id for what the call creates, {@code <prefix>_} and 128 bits of the key: the same for every run of the call. */
    public String id(String prefix) {
        return prefix + "_" + digest.substring(0, 32);
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
