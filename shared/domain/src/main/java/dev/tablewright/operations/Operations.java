package dev.tablewright.operations;

import dev.tablewright.config.TableConfig;

/** What every operation does first. */
final class Operations {

    private Operations() {
    }

    /** A draft of the config, or null after an error when it has no base table to work on. */
    static ConfigDraft draft(TableConfig config, ChangeLog log) {
        if (config == null) {
            log.error("config", "config is missing");
            return null;
        }
        ConfigDraft d = ConfigDraft.of(config);
        if (d == null) {
            log.error("data_source", "the config has no base table (data_source[0] with schema and source); set one first");
        }
        return d;
    }

    /** One add or remove of a single spec (a filter, a join) on the draft. */
    interface Step<S> {
        void apply(ConfigDraft draft, S spec, ChangeLog log);
    }

    /**
     * The {@code apply} of the add-or-remove changes (FilterChange, JoinChange): the draft, then the operation and
     * the spec (named {@code specField}) checked for presence, then the step.
     */
    static <S> OperationResult addOrRemove(TableConfig config, Enum<?> operation, String specField, S spec, Step<S> step) {
        ChangeLog log = new ChangeLog();
        ConfigDraft draft = draft(config, log);
        if (draft == null) {
            return log.finish(null);
        }
        if (operation == null) {
            log.error("operation", "operation is missing; one of add, remove");
        } else if (spec == null) {
            log.error(specField, specField + " is missing");
        } else {
            step.apply(draft, spec, log);
        }
        return log.finish(draft);
    }
}
