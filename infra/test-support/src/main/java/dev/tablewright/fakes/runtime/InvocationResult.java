package dev.tablewright.fakes.runtime;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

/**
 * How an invocation ended at the Runtime API.
 *
 * @param outcome     {@code RESPONSE} (a {@code /response} POST), {@code ERROR} (a {@code /invocation/{id}/error} POST),
 *                    {@code INIT_ERROR} (the runtime reported {@code /init/error} before taking the invocation), or
 *                    {@code DROPPED} (the test dropped the streamed response with {@link Invocation#dropStream()})
 * @param streamed    the response came with {@code Lambda-Runtime-Function-Response-Mode: streaming}
 * @param headers     request headers of the {@code /response} or {@code /error} POST
 * @param body        the whole body (for a stream: every chunk, in order)
 * @param trailers    chunked trailers (a stream's mid-stream error report)
 * @param completedNanos {@link System#nanoTime()} when the body (and its trailers) had been read
 */
public record InvocationResult(Outcome outcome, boolean streamed, Map<String, String> headers, byte[] body,
                               Map<String, String> trailers, long completedNanos) {

    public enum Outcome { RESPONSE, ERROR, INIT_ERROR, DROPPED }

    public static final String ERROR_TYPE = "Lambda-Runtime-Function-Error-Type";
    public static final String ERROR_BODY = "Lambda-Runtime-Function-Error-Body";

    public String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }

    /** The error type: the {@code /error} header, or a stream's trailer; null when the invocation succeeded. */
    public String errorType() {
        if (outcome != Outcome.RESPONSE) {
            return headers.getOrDefault(ERROR_TYPE, "Unhandled");
        }
        return trailers.get(ERROR_TYPE);
    }

    /** The error document: the {@code /error} body, or a stream's base64-decoded error trailer; null on success. */
    public String errorBody() {
        if (outcome != Outcome.RESPONSE) {
            return bodyText();
        }
        String encoded = trailers.get(ERROR_BODY);
        if (encoded == null) {
            return null;
        }
        try {
            return new String(Base64.getDecoder().decode(encoded.trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException notBase64) {
            return encoded;
        }
    }

    /** A successful response with no error trailer. */
    public boolean succeeded() {
        return outcome == Outcome.RESPONSE && errorType() == null;
    }
}
