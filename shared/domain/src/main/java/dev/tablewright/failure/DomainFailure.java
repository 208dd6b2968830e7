package dev.tablewright.failure;

import dev.tablewright.validation.ValidationError;

import java.util.List;
import java.util.Map;

/**
 * Why a domain operation did not happen. Every failure a caller can act on is one of these, and each channel maps
 * it once: {@code dev.tablewright.lambda.HttpFailures} to an HTTP answer, {@code dev.tablewright.toolcontract.ToolFailures}
 * to a tool answer. The codes are those of docs/errors.md.
 */
public abstract class DomainFailure extends RuntimeException {

    /** What kind of refusal it is: the HTTP status and the tool code follow from it. */
    public enum Kind {
        /** The input breaks a rule; {@link #errors()} names each field (HTTP 400, tool {@code invalid_arguments}). */
        INVALID,
        /** Absent, or another owner's (HTTP 404). */
        NOT_FOUND,
        /** The state moved on or forbids it (HTTP 409). */
        CONFLICT,
        /** A dependency could not answer; nothing was written, and a retry may succeed (HTTP 503). */
        UNAVAILABLE
    }

    private final Kind kind;
    private final ErrorCode code;
    private final List<ValidationError> errors;

    protected DomainFailure(Kind kind, ErrorCode code, String message) {
        super(message);
        this.kind = kind;
        this.code = code;
        this.errors = List.of();
    }

    protected DomainFailure(Kind kind, ErrorCode code, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
        this.code = code;
        this.errors = List.of();
    }

    /** Without a stack trace: for refusals of user input, which are expected and frequent. */
    protected DomainFailure(Kind kind, ErrorCode code, String message, boolean withStackTrace) {
        this(kind, code, message, List.of(), withStackTrace);
    }

    /** A refusal of input ({@link Kind#INVALID}) naming each bad field, without a stack trace when it is expected. */
    protected DomainFailure(Kind kind, ErrorCode code, String message, List<ValidationError> errors, boolean withStackTrace) {
        super(message, null, false, withStackTrace);
        this.kind = kind;
        this.code = code;
        this.errors = List.copyOf(errors);
    }

    public final Kind kind() {
        return kind;
    }

    /** The error code both answers carry (for {@link Kind#INVALID} each channel has its own: docs/errors.md). */
    public final ErrorCode code() {
        return code;
    }

    /** Each bad field, for {@link Kind#INVALID}. */
    public final List<ValidationError> errors() {
        return errors;
    }

    /** What the caller needs to act on a conflict (e.g. the current version); JSON values. */
    public Map<String, Object> details() {
        return Map.of();
    }

    /** The message a caller sees; {@link #getMessage()} may say more, for the logs. */
    public String publicMessage() {
        return getMessage();
    }
}
