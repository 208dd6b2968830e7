package dev.tablewright.configstore;

import dev.tablewright.validation.ValidationError;

import java.util.List;

/** The config cannot be stored as given (a name too long, a body too large); each problem names its field. */
public final class InvalidConfigException extends RuntimeException {
    private final List<ValidationError> errors;

    public InvalidConfigException(List<ValidationError> errors) {
        super(errors.isEmpty() ? "invalid config" : errors.get(0).field() + ": " + errors.get(0).message());
        this.errors = List.copyOf(errors);
    }

    public List<ValidationError> errors() {
        return errors;
    }
}
