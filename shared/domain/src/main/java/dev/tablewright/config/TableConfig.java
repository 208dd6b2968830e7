package dev.tablewright.config;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;

/**
 * A table configuration in the Config wire format v1 (docs/table-config.md). Records are immutable:
 * an operation builds a new config. Unknown fields of every object are kept in {@code extra}.
 */
public record TableConfig(String id, String name, String description, Long version,
                          List<DataSource> dataSource,
                          VisualSettings visualSettings,
                          Map<String, JsonNode> extra) {
    public TableConfig {
        extra = Extras.copy(extra);
    }
}
