package dev.tablewright.config;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;

/** Page size and the per-column settings, keyed by result key (insertion order kept). */
public record VisualSettings(@JsonProperty("page_size") Integer pageSize,
                             java.util.LinkedHashMap<String, ColumnSettings> columns,
                             @JsonAnySetter @JsonAnyGetter Map<String, JsonNode> extra) {
    public VisualSettings {
        extra = Extras.copy(extra);
    }
}
