package dev.tablewright.configstore;

import dev.tablewright.failure.DomainFailure;
import dev.tablewright.failure.ErrorCode;

/** A page cursor that this store did not hand out (or for another listing). */
public final class InvalidCursorException extends DomainFailure {
    private static final String MESSAGE = "cursor is not one this listing handed out";

    public InvalidCursorException() {
        super(Kind.INVALID, ErrorCode.INVALID_CURSOR, MESSAGE, java.util.List.of(new dev.tablewright.validation.ValidationError("cursor", MESSAGE)),
                true);
    }
}
