package dev.tablewright.configstore;

import dev.tablewright.config.TableConfig;

import java.time.Instant;

/**
 * One kept version of a config and how it came about.
 *
 * @param config       the config as of this version; null in version listings
 * @param previewId    set when {@code change} is {@link ChangeKind#PREVIEW}
 * @param restoredFrom set when {@code change} is {@link ChangeKind#RESTORE}
 */
public record ConfigVersion(String configId, long version, String name, ChangeKind change, String previewId,
                            Long restoredFrom, TableConfig config, Instant createdAt) {
}
