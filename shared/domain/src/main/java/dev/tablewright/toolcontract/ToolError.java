package dev.tablewright.toolcontract;

import dev.tablewright.failure.ErrorCode;
import dev.tablewright.validation.ValidationError;

import java.util.List;

/** A tool failure the caller can act on; {@code code} is one of the tool codes of docs/errors.md (null: none given). */
public record ToolError(ErrorCode code, String message, List<ValidationError> errors) {
    public ToolError(ErrorCode code, String message) {
        this(code, message, List.of());
    }
}
