package dev.tablewright.configstore;

/** The change was built on {@code baseVersion}, but another change landed first; the config is now at {@code currentVersion}. */
public final class VersionConflictException extends RuntimeException {
    private final String configId;
    private final long baseVersion;
    private final Long currentVersion;

    public VersionConflictException(String configId, long baseVersion, Long currentVersion) {
        super("config '" + configId + "' is at version " + (currentVersion == null ? "?" : currentVersion)
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
}
