package dev.tablewright.configstore;

/** A page cursor that this store did not hand out (or for another listing). */
public final class InvalidCursorException extends IllegalArgumentException {
    public InvalidCursorException() {
        super("cursor is not one this listing handed out");
    }
}
