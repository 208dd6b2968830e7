package dev.tablewright.userinput;

import dev.tablewright.failure.DomainFailure;

/** No such conversation, request or value for this owner (whether it exists for someone else is never told). */
public final class InputRequestNotFoundException extends DomainFailure {
    public InputRequestNotFoundException(String message) {
        super(Kind.NOT_FOUND, "not_found", message, false);
    }
}
