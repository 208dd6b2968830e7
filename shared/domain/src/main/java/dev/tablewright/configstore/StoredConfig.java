package dev.tablewright.configstore;

import dev.tablewright.config.TableConfig;

import java.time.Instant;

/** The current version of a saved config. {@code config}'s id, name and version agree with the fields here. */
public record StoredConfig(String configId, String ownerId, String name, long version, TableConfig config,
                           Instant createdAt, Instant updatedAt) {
}
