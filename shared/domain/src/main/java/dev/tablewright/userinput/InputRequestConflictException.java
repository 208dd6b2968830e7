package dev.tablewright.userinput;

import dev.tablewright.failure.DomainFailure;
import dev.tablewright.failure.ErrorCode;

/** The request is no longer (or already) in the state the operation needs: HTTP 409 with the current status. */
public final class InputRequestConflictException extends DomainFailure {

    private final RequestStatus currentStatus;

    public InputRequestConflictException(RequestStatus currentStatus) {
        super(Kind.CONFLICT, ErrorCode.CONFLICT, "the input request is " + currentStatus.wireName(), false);
        this.currentStatus = currentStatus;
    }

    public RequestStatus currentStatus() {
        return currentStatus;
    }

    @Override
    public java.util.Map<String, Object> details() {
        return java.util.Map.of("currentStatus", currentStatus.wireName());
    }
}
