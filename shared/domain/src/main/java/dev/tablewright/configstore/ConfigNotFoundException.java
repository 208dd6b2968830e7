package dev.tablewright.configstore;

/** No such config (or version) for this owner; another owner's config is reported the same way. */
public final class ConfigNotFoundException extends RuntimeException {
    public ConfigNotFoundException(String message) {
        super(message);
    }

    public static ConfigNotFoundException config(String configId) {
        return new ConfigNotFoundException("config '" + configId + "' not found");
    }

    public static ConfigNotFoundException version(String configId, long version) {
        return new ConfigNotFoundException("config '" + configId + "' has no version " + version);
    }
}
