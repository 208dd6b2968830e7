package dev.tablewright.userinput;

import dev.tablewright.validation.ValidationError;

import java.util.List;

/** A form declaration or a submit that fails its checks; every bad field is in {@link #errors()}. */
public final class InvalidInputException extends RuntimeException {

    private final List<ValidationError> errors;

    public InvalidInputException(String message, List<ValidationError> errors) {
        super(message, null, false, false);
        this.errors = List.copyOf(errors);
    }

    public List<ValidationError> errors() {
        return errors;
    }
}
