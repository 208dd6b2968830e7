package dev.tablewright.configstore;

import java.time.Instant;

/** One line of a config list: enough to choose a config without loading it. */
public record ConfigSummary(String configId, String name, String description, long version, Instant updatedAt) {
}
