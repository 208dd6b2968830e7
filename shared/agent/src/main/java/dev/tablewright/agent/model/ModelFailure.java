package dev.tablewright.agent.model;

/**
 * The model could not answer. {@code message} is plain and safe to show a user (no secret, no stack trace);
 * {@code afterFirstByte} tells whether part of the step had already reached the listener.
 */
public final class ModelFailure extends Exception {

    public enum Kind { RATE_LIMITED, UNAVAILABLE, TIMEOUT, OUT_OF_TIME, REJECTED, CUT_OFF }

    private final Kind kind;
    private final boolean afterFirstByte;
    private final java.time.Duration retryAfter;

    public ModelFailure(Kind kind, String message, boolean afterFirstByte) {
        this(kind, message, afterFirstByte, null);
    }

    public ModelFailure(Kind kind, String message, boolean afterFirstByte, java.time.Duration retryAfter) {
        super(message, null, false, false);
        this.kind = kind;
        this.afterFirstByte = afterFirstByte;
        this.retryAfter = retryAfter;
    }

    /** The server's Retry-After, when it sent one. */
    public java.util.Optional<java.time.Duration> retryAfter() {
        return java.util.Optional.ofNullable(retryAfter);
    }

    public Kind kind() {
        return kind;
    }

    public boolean afterFirstByte() {
        return afterFirstByte;
    }

    /** 429, 5xx and timeouts are worth another attempt when nothing reached the client yet. */
    public boolean retryable() {
        return !afterFirstByte && (kind == Kind.RATE_LIMITED || kind == Kind.UNAVAILABLE || kind == Kind.TIMEOUT);
    }
}
