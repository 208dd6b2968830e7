package dev.tablewright.configstore;

import dev.tablewright.failure.DomainFailure;
import dev.tablewright.failure.ErrorCode;

/** The owner already has another config with this name (names are unique per owner, case-insensitively). */
public final class ConfigNameTakenException extends DomainFailure {
    private final String name;

    public ConfigNameTakenException(String name) {
        super(Kind.CONFLICT, ErrorCode.NAME_TAKEN, "a config named '" + name + "' already exists");
        this.name = name;
    }

    public String name() {
        return name;
    }

    @Override
    public java.util.Map<String, Object> details() {
        return java.util.Map.of("field", "config.name");
    }
}
