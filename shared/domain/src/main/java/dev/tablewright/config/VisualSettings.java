package dev.tablewright.config;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Map;

/** Page size and the per-column settings, keyed by result key (insertion order kept). */
public record VisualSettings(Integer pageSize,
                             java.util.LinkedHashMap<String, ColumnSettings> columns,
                             Map<String, JsonNode> extra) {
    public VisualSettings {
        extra = Extras.copy(extra);
    }
}
