package dev.tablewright.tool;

import dev.tablewright.validation.ValidationError;

import java.util.List;

/** A tool failure the caller can act on; {@code code} is one of the tool codes of docs/errors.md. */
public record ToolError(String code, String message, List<ValidationError> errors) {
    public ToolError(String code, String message) {
        this(code, message, List.of());
    }
}
