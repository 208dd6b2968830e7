package dev.tablewright.configstore;

import dev.tablewright.failure.DomainFailure;
import dev.tablewright.failure.ErrorCode;

/** The change was built on {@code baseVersion}, but another change landed first; the config is now at {@code currentVersion}. */
public final class VersionConflictException extends DomainFailure {
    private final String configId;
    private final long baseVersion;
    private final Long currentVersion;

    public VersionConflictException(String configId, long baseVersion, Long currentVersion) {
        super(Kind.CONFLICT, ErrorCode.VERSION_CONFLICT, "config '" + configId + "' is at version " + (currentVersion == null ? "?" : currentVersion)
                + ", not " + baseVersion + ": another change landed first");
        this.configId = configId;
        this.baseVersion = baseVersion;
        this.currentVersion = currentVersion;
    }

    public String configId() {
        return configId;
    }

    public long baseVersion() {
        return baseVersion;
    }

    /** The version the config is at now, when the store could tell; may be null. */
    public Long currentVersion() {
        return currentVersion;
    }

    @Override
    public java.util.Map<String, Object> details() {
        java.util.Map<String, Object> details = new java.util.LinkedHashMap<>();
        details.put("configId", configId);
        details.put("baseVersion", baseVersion);
        if (currentVersion != null) {
            details.put("currentVersion", currentVersion);
        }
        return details;
    }
}
