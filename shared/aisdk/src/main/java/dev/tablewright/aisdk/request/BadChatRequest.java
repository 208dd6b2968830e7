package dev.tablewright.aisdk.request;

import dev.tablewright.failure.DomainFailure;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.validation.ValidationError;

import java.util.List;

/** A request the chat turn cannot take: answered 400 with the offending field and a plain message. */
public final class BadChatRequest extends DomainFailure {

    private final String field;

    public BadChatRequest(String field, String message) {
        super(Kind.INVALID, ErrorCode.INVALID_REQUEST, message, List.of(new ValidationError(field, message)), false);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
