package dev.tablewright.configstore;

import dev.tablewright.failure.DomainFailure;

/** A page cursor that this store did not hand out (or for another listing). */
public final class InvalidCursorException extends DomainFailure {
    public InvalidCursorException() {
        super(Kind.INVALID, "invalid_cursor", "cursor is not one this listing handed out");
    }

    @Override
    public java.util.List<dev.tablewright.validation.ValidationError> errors() {
        return java.util.List.of(new dev.tablewright.validation.ValidationError("cursor", getMessage()));
    }
}
