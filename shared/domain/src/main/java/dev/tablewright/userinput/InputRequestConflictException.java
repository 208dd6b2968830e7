package dev.tablewright.userinput;

/** The request is no longer (or already) in the state the operation needs: HTTP 409 with the current status. */
public final class InputRequestConflictException extends RuntimeException {

    private final RequestStatus currentStatus;

    public InputRequestConflictException(RequestStatus currentStatus) {
        super("the input request is " + currentStatus.wireName(), null, false, false);
        this.currentStatus = currentStatus;
    }

    public RequestStatus currentStatus() {
        return currentStatus;
    }
}
