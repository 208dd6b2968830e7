package dev.tablewright.userinput;

import dev.tablewright.failure.DomainFailure;
import dev.tablewright.failure.ErrorCode;

/** No such conversation, request or value for this owner (whether it exists for someone else is never told). */
public final class InputRequestNotFoundException extends DomainFailure {
    public InputRequestNotFoundException(String message) {
        super(Kind.NOT_FOUND, ErrorCode.NOT_FOUND, message, false);
    }
}
