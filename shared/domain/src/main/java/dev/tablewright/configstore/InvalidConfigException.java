package dev.tablewright.configstore;

import dev.tablewright.failure.DomainFailure;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.validation.ValidationError;

import java.util.List;

/** The config cannot be stored as given (a name too long, a body too large); each problem names its field. */
public final class InvalidConfigException extends DomainFailure {
    public InvalidConfigException(List<ValidationError> errors) {
        super(Kind.INVALID, ErrorCode.INVALID_CONFIG, errors.isEmpty() ? "invalid config" : errors.get(0).field() + ": " + errors.get(0).message(),
                errors, true);
    }
}
