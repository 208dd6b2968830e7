package dev.tablewright.aisdk.approval;

import com.fasterxml.jackson.databind.JsonNode;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;

/**
 * The AI SDK 7 tool-approval signature ({@code experimental_toolApprovalSecret}), byte for byte: HMAC-SHA256 keyed
 * with the secret's UTF-8 bytes over {@code JSON.stringify(["ai-sdk-tool-approval-v1", approvalId, toolCallId,
 * toolName, inputDigest])}, where {@code inputDigest} is base64url(SHA-256(canonical JSON of the input)) and both
 * are base64url without padding. The canonical JSON is the SDK's {@code canonicalJSON}: object keys sorted by UTF-16
 * code units, no whitespace, strings and numbers as JavaScript's {@code JSON.stringify} writes them. So a JavaScript
 * backend holding the same secret verifies what this signs, and the reverse.
 */
public final class ToolApprovalSignature {

    static final String VERSION = "ai-sdk-tool-approval-v1";
    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

    private final byte[] secret;

    /** @param secret the shared secret, as the SDK takes a string: its UTF-8 bytes are the HMAC key */
    public ToolApprovalSignature(String secret) {
        if (secret == null || secret.isEmpty()) {
            throw new IllegalArgumentException("a tool approval secret must not be empty");
        }
        this.secret = secret.getBytes(StandardCharsets.UTF_8);
    }

    public String sign(String approvalId, String toolCallId, String toolName, JsonNode input) {
        return BASE64URL.encodeToString(hmac(payload(approvalId, toolCallId, toolName, input)));
    }

    /** Whether {@code signature} is this call's (compared in constant time); a missing or malformed one is not. */
    public boolean verify(String signature, String approvalId, String toolCallId, String toolName, JsonNode input) {
        if (signature == null || signature.isEmpty()) {
            return false;
        }
        byte[] given;
        try {
            given = Base64.getUrlDecoder().decode(signature.replace('+', '-').replace('/', '_').replaceAll("=+$", ""));
        } catch (IllegalArgumentException e) {
            return false;
        }
        return MessageDigest.isEqual(given, hmac(payload(approvalId, toolCallId, toolName, input)));
    }

    static byte[] payload(String approvalId, String toolCallId, String toolName, JsonNode input) {
        String json = "[" + jsString(VERSION) + "," + jsString(approvalId) + "," + jsString(toolCallId) + ","
                + jsString(toolName) + "," + jsString(inputDigest(input)) + "]";
        return json.getBytes(StandardCharsets.UTF_8);
    }

    /** base64url(SHA-256(canonical JSON)), the SDK's {@code hashCanonical}. */
    static String inputDigest(JsonNode input) {
        try {
            return BASE64URL.encodeToString(MessageDigest.getInstance("SHA-256")
                    .digest(canonical(input).getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private byte[] hmac(byte[] payload) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return mac.doFinal(payload);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The SDK's {@code canonicalJSON}: sorted keys, no whitespace, {@code JSON.stringify}'s strings and numbers. */
    public static String canonical(JsonNode value) {
        StringBuilder out = new StringBuilder();
        canonical(value, out);
        return out.toString();
    }

    private static void canonical(JsonNode value, StringBuilder out) {
        if (value == null || value.isNull() || value.isMissingNode()) {
            out.append("null");
        } else if (value.isTextual()) {
            out.append(jsString(value.textValue()));
        } else if (value.isBoolean()) {
            out.append(value.booleanValue());
        } else if (value.isNumber()) {
            out.append(jsNumber(value));
        } else if (value.isArray()) {
            out.append('[');
            for (int i = 0; i < value.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                canonical(value.get(i), out);
            }
            out.append(']');
        } else if (value.isObject()) {
            List<String> keys = new ArrayList<>();
            for (Iterator<String> it = value.fieldNames(); it.hasNext(); ) {
                keys.add(it.next());
            }
            keys.sort(null); // String.compareTo orders by UTF-16 code units, as Array.prototype.sort does
            out.append('{');
            for (int i = 0; i < keys.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                out.append(jsString(keys.get(i))).append(':');
                canonical(value.get(keys.get(i)), out);
            }
            out.append('}');
        } else {
            out.append(jsString(value.asText())); // binary, POJO: not in JSON input
        }
    }

    /** {@code JSON.stringify} of a string (ECMAScript QuoteJSONString, with lone surrogates escaped). */
    static String jsString(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    boolean lone = Character.isHighSurrogate(c) ? i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))
                            : Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(s.charAt(i - 1)));
                    if (c < 0x20 || lone) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    /** A JSON number as JavaScript's {@code Number.prototype.toString} writes the double it parses to. */
    static String jsNumber(JsonNode number) {
        double d = number.isIntegralNumber() && number.canConvertToLong() ? number.longValue() : number.doubleValue();
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return "null";
        }
        if (d == 0) {
            return "0";
        }
        // the shortest decimal that round-trips (Java's Double.toString gives it since JDK 19), laid out as JS does
        BigDecimal shortest = new BigDecimal(Double.toString(Math.abs(d))).stripTrailingZeros();
        if (shortest.precision() == 2) {
            // Java writes at least two digits (4.9E-324); JavaScript one when one round-trips (5e-324)
            for (java.math.RoundingMode mode : new java.math.RoundingMode[]{java.math.RoundingMode.HALF_EVEN,
                    java.math.RoundingMode.FLOOR, java.math.RoundingMode.CEILING}) {
                BigDecimal one = shortest.round(new java.math.MathContext(1, mode));
                if (Double.parseDouble(one.toString()) == Math.abs(d)) {
                    shortest = one.stripTrailingZeros();
                    break;
                }
            }
        }
        String digits = shortest.unscaledValue().toString();
        int k = digits.length();
        int n = k - shortest.scale(); // the decimal point's position: value = 0.digits × 10^n
        StringBuilder out = new StringBuilder(d < 0 ? "-" : "");
        if (k <= n && n <= 21) {
            out.append(digits).append("0".repeat(n - k));
        } else if (0 < n && n <= 21) {
            out.append(digits, 0, n).append('.').append(digits, n, k);
        } else if (-6 < n && n <= 0) {
            out.append("0.").append("0".repeat(-n)).append(digits);
        } else {
            int e = n - 1;
            out.append(digits.charAt(0));
            if (k > 1) {
                out.append('.').append(digits, 1, k);
            }
            out.append('e').append(e < 0 ? "-" : "+").append(Math.abs(e));
        }
        return out.toString();
    }
}
