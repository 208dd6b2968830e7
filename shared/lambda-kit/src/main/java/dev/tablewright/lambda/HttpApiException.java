package dev.tablewright.lambda;

import dev.tablewright.validation.ValidationError;

import java.util.List;
import java.util.Map;

/**
 * An answer other than success, thrown from a handler and turned into a JSON error response by
 * {@link HttpApiFunction}. Use the factories: they fix the status and code pairs the API documents.
 */
public final class HttpApiException extends RuntimeException {

    private final int status;
    private final ApiError error;

    public HttpApiException(int status, ApiError error) {
        super(error.code() + ": " + error.message(), null, false, false);
        this.status = status;
        this.error = error;
    }

    public int status() {
        return status;
    }

    public ApiError error() {
        return error;
    }

    /** 400 naming each bad field. */
    public static HttpApiException invalid(String message, List<ValidationError> fields) {
        return new HttpApiException(400, new ApiError("invalid_request", message, fields, Map.of()));
    }

    public static HttpApiException invalid(String field, String message) {
        return invalid(message, List.of(new ValidationError(field, message)));
    }

    public static HttpApiException badRequest(String code, String message) {
        return new HttpApiException(400, new ApiError(code, message));
    }

    public static HttpApiException unauthenticated() {
        return new HttpApiException(401, new ApiError("unauthenticated", "the request carries no caller identity"));
    }

    /** 404: also what a caller gets for something that exists but belongs to someone else. */
    public static HttpApiException notFound(String message) {
        return new HttpApiException(404, new ApiError("not_found", message));
    }
}
