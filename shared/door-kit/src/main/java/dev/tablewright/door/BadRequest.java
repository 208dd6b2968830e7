package dev.tablewright.door;

import dev.tablewright.failure.DomainFailure;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.validation.ValidationError;

import java.util.List;

/** A request a door cannot take: answered 400 with the offending field and a plain message (docs/errors.md). */
public class BadRequest extends DomainFailure {

    private final String field;

    public BadRequest(String field, String message) {
        super(Kind.INVALID, ErrorCode.INVALID_REQUEST, message, List.of(new ValidationError(field, message)), false);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
