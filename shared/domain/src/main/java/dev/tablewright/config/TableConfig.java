package dev.tablewright.config;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;

/**
 * A table configuration in the Config wire format v1 (docs/table-config.md). Records are immutable:
 * an operation builds a new config. Unknown fields of every object are kept in {@code extra}.
 */
public record TableConfig(String id, String name, String description, Long version,
                          @JsonProperty("data_source") List<DataSource> dataSource,
                          @JsonProperty("visual_settings") VisualSettings visualSettings,
                          @JsonAnySetter @JsonAnyGetter Map<String, JsonNode> extra) {
    public TableConfig {
        extra = Extras.copy(extra);
    }
}
