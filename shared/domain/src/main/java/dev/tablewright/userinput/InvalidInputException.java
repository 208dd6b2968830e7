package dev.tablewright.userinput;

import dev.tablewright.failure.DomainFailure;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.validation.ValidationError;

import java.util.List;

/** A form declaration or a submit that fails its checks; every bad field is in {@link #errors()}. */
public final class InvalidInputException extends DomainFailure {

    public InvalidInputException(String message, List<ValidationError> errors) {
        super(Kind.INVALID, ErrorCode.INVALID_INPUT, message, errors, false);
    }
}
