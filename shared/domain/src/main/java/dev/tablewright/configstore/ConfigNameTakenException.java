package dev.tablewright.configstore;

/** The owner already has another config with this name (names are unique per owner, case-insensitively). */
public final class ConfigNameTakenException extends RuntimeException {
    private final String name;

    public ConfigNameTakenException(String name) {
        super("a config named '" + name + "' already exists");
        this.name = name;
    }

    public String name() {
        return name;
    }
}
