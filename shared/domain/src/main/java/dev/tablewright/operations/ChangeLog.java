package dev.tablewright.operations;

import dev.tablewright.config.TableConfig;
import dev.tablewright.validation.ConfigValidator;
import dev.tablewright.validation.ValidationCollector;
import dev.tablewright.validation.ValidationReport;

import java.util.ArrayList;
import java.util.List;

/** What one operation found and did: its own errors and warnings, and the {@code applied} sentences. */
final class ChangeLog {

    final ValidationCollector problems = new ValidationCollector();
    final List<String> applied = new ArrayList<>();

    void error(String field, String message) {
        problems.error(field, message);
    }

    void warning(String field, String message) {
        problems.warning(field, message);
    }

    void applied(String sentence) {
        applied.add(sentence);
    }

    boolean failed() {
        return problems.hasErrors();
    }

    /** The answer: the operation's own errors if any, else the validated result (never an invalid config as valid). */
    OperationResult finish(ConfigDraft draft) {
        if (failed() || draft == null) {
            ValidationReport own = problems.report();
            return OperationResult.invalid(own.errors(), own.warnings());
        }
        TableConfig result = draft.toConfig();
        ValidationReport report = ConfigValidator.validate(result);
        ValidationCollector all = new ValidationCollector();
        all.addAll(problems.report());
        all.addAll(report);
        ValidationReport merged = all.report();
        if (!report.valid()) {
            return OperationResult.invalid(merged.errors(), merged.warnings());
        }
        return OperationResult.valid(result, merged.warnings(), applied);
    }
}
