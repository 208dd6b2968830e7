package dev.tablewright.lambda;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.tablewright.validation.ValidationError;

import java.util.List;
import java.util.Map;

/**
 * The {@code error} object of every HTTP API error answer:
 * {@code {"error":{"code":"invalid_request","message":"...","fields":[{"field":"values.port","message":"..."}]}}}.
 * {@code details} are written flat beside code and message (e.g. {@code "currentStatus":"completed"} on a 409).
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ApiError(String code, String message, List<ValidationError> fields,
                       @JsonIgnore Map<String, Object> details) {

    public ApiError {
        fields = fields == null ? List.of() : List.copyOf(fields);
        details = details == null ? Map.of() : Map.copyOf(details);
    }

    public ApiError(String code, String message) {
        this(code, message, List.of(), Map.of());
    }

    @JsonAnyGetter
    public Map<String, Object> detailsForJson() {
        return details;
    }

    /** The whole answer body, {@code {"error": {...}}}. */
    public record Body(ApiError error) {
    }
}
