package dev.tablewright.validation;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects errors and warnings without stopping at the first one. Reports at most {@link #MAX_REPORTED} of each
 * kind, then one summary entry, so hostile input (10,000 bad columns) gets a short, bounded answer.
 */
public final class ValidationCollector {

    public static final int MAX_REPORTED = 50;

    private final List<ValidationError> errors = new ArrayList<>();
    private final List<ValidationError> warnings = new ArrayList<>();
    private int errorCount;
    private int warningCount;

    public void error(String field, String message) {
        errorCount++;
        if (errors.size() < MAX_REPORTED) {
            errors.add(new ValidationError(field, message));
        }
    }

    public void warning(String field, String message) {
        warningCount++;
        if (warnings.size() < MAX_REPORTED) {
            warnings.add(new ValidationError(field, message));
        }
    }

    public void addAll(ValidationReport report) {
        report.errors().forEach(e -> error(e.field(), e.message()));
        report.warnings().forEach(w -> warning(w.field(), w.message()));
    }

    public boolean hasErrors() {
        return errorCount > 0;
    }

    public int errorCount() {
        return errorCount;
    }

    public ValidationReport report() {
        List<ValidationError> e = new ArrayList<>(errors);
        if (errorCount > errors.size()) {
            e.add(new ValidationError("", (errorCount - errors.size()) + " more errors not listed"));
        }
        List<ValidationError> w = new ArrayList<>(warnings);
        if (warningCount > warnings.size()) {
            w.add(new ValidationError("", (warningCount - warnings.size()) + " more warnings not listed"));
        }
        return new ValidationReport(e, w);
    }
}
