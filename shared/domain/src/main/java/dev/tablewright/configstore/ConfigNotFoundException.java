package dev.tablewright.configstore;

import dev.tablewright.failure.DomainFailure;
import dev.tablewright.failure.ErrorCode;

/** No such config (or version) for this owner; another owner's config is reported the same way. */
public final class ConfigNotFoundException extends DomainFailure {
    public ConfigNotFoundException(String message) {
        super(Kind.NOT_FOUND, ErrorCode.NOT_FOUND, message);
    }

    public static ConfigNotFoundException config(String configId) {
        return new ConfigNotFoundException("config '" + configId + "' not found");
    }

    public static ConfigNotFoundException version(String configId, long version) {
        return new ConfigNotFoundException("config '" + configId + "' has no version " + version);
    }
}
