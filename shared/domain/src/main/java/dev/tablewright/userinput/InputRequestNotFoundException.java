package dev.tablewright.userinput;

/** No such conversation, request or value for this owner (whether it exists for someone else is never told). */
public final class InputRequestNotFoundException extends RuntimeException {
    public InputRequestNotFoundException(String message) {
        super(message, null, false, false);
    }
}
