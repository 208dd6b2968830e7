package dev.tablewright.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.json.Json;

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The {@code requestState} of a 2026-07-28 multi round-trip request, sealed with AES-256-GCM: the client holds it
 * between the {@code input_required} answer and its retry, so it is attacker-controlled input (the spec says so).
 * Sealing makes it opaque and tamper-evident, and the sealed payload binds it to the caller's subject, the method,
 * the tool, a digest of the arguments and an expiry: {@link #open} refuses a state that was altered, has lapsed, is
 * presented by another user, or is replayed on another tool or other arguments. It does not make a state single-use:
 * what must happen once (a save) is guarded where it happens.
 */
final class RequestStateSeal {

    /** What a state is bound to: checked on every retry against the retry itself. */
    record Binding(String subject, String method, String tool, String argumentsDigest) {
    }

    /** An opened state: its binding, its expiry and what the call carried over (the question asked, values so far). */
    record Opened(Binding binding, Instant expiresAt, ObjectNode carried) {
    }

    private static final String VERSION = "v1";
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    /** Bound into every seal as associated data, so a blob sealed for anything else under the same key never opens. */
    private static final byte[] CONTEXT = "tablewright mcp requestState v1".getBytes(StandardCharsets.UTF_8);
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Far more than a state needs (a question, a few values); a longer one is refused before any decryption. */
    static final int MAX_SEALED_CHARS = 16_384;

    private final SecretKeySpec key;

    /** @param secret the key material (the generated secret's text); the AES key is derived from it with SHA-256 */
    RequestStateSeal(byte[] secret) {
        if (secret == null || secret.length < 32) {
            throw new IllegalArgumentException("the requestState key needs at least 32 bytes of secret material");
        }
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(CONTEXT);
            this.key = new SecretKeySpec(sha.digest(secret), "AES");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has SHA-256
        }
    }

    String seal(Binding binding, Instant expiresAt, ObjectNode carried) {
        ObjectNode payload = Json.object().put("sub", binding.subject()).put("m", binding.method())
                .put("t", binding.tool()).put("d", binding.argumentsDigest()).put("exp", expiresAt.getEpochSecond());
        payload.set("c", carried);
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(CONTEXT);
            byte[] sealed = cipher.doFinal(Json.write(payload).getBytes(StandardCharsets.UTF_8));
            byte[] out = new byte[nonce.length + sealed.length];
            System.arraycopy(nonce, 0, out, 0, nonce.length);
            System.arraycopy(sealed, 0, out, nonce.length, sealed.length);
            return VERSION + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("requestState could not be sealed", e);
        }
    }

    /**
     * The state when it opens under this key, is unexpired at {@code now} and was sealed for exactly {@code expected};
     * otherwise empty (which of these failed is not told: every refusal reads the same to the client).
     */
    Optional<Opened> open(String sealed, Binding expected, Instant now) {
        if (sealed == null || sealed.length() > MAX_SEALED_CHARS || !sealed.startsWith(VERSION + ".")) {
            return Optional.empty();
        }
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(sealed.substring(VERSION.length() + 1));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (bytes.length <= NONCE_BYTES + TAG_BITS / 8) {
            return Optional.empty();
        }
        JsonNode payload;
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, bytes, 0, NONCE_BYTES));
            cipher.updateAAD(CONTEXT);
            byte[] plain = cipher.doFinal(bytes, NONCE_BYTES, bytes.length - NONCE_BYTES);
            payload = Json.parse(new String(plain, StandardCharsets.UTF_8));
        } catch (GeneralSecurityException | java.io.IOException | RuntimeException e) {
            return Optional.empty(); // tampered, or sealed under another key
        }
        Binding binding = new Binding(payload.path("sub").asText(null), payload.path("m").asText(null),
                payload.path("t").asText(null), payload.path("d").asText(null));
        Instant expiresAt = Instant.ofEpochSecond(payload.path("exp").asLong(0));
        if (!binding.equals(expected) || !now.isBefore(expiresAt) || !payload.path("c").isObject()) {
            return Optional.empty();
        }
        return Optional.of(new Opened(binding, expiresAt, (ObjectNode) payload.get("c")));
    }

    /**
     * A digest of a call's arguments, independent of member order: a state sealed for one set of arguments does not
     * open for another.
     */
    static String digest(JsonNode arguments) {
        try {
            byte[] canonical = Json.write(canonical(arguments)).getBytes(StandardCharsets.UTF_8);
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(canonical));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode canonical(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return Json.object();
        }
        if (node.isObject()) {
            ObjectNode sorted = Json.object();
            java.util.List<String> names = new java.util.ArrayList<>();
            node.fieldNames().forEachRemaining(names::add);
            java.util.Collections.sort(names);
            for (String name : names) {
                sorted.set(name, canonical(node.get(name)));
            }
            return sorted;
        }
        if (node.isArray()) {
            com.fasterxml.jackson.databind.node.ArrayNode out = Json.MAPPER.createArrayNode();
            node.forEach(item -> out.add(canonical(item)));
            return out;
        }
        return node;
    }
}
