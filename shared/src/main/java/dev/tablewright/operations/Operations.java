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
}
