package dev.tablewright.validation;

import java.util.List;

/** The outcome of a validation: errors (the config must not be used) and warnings (it still renders). */
public record ValidationReport(List<ValidationError> errors, List<ValidationError> warnings) {
    public ValidationReport {
        errors = List.copyOf(errors);
        warnings = List.copyOf(warnings);
    }

    public boolean valid() {
        return errors.isEmpty();
    }
}
