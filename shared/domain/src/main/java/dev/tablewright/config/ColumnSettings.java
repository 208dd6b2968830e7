package dev.tablewright.config;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Map;

/** How one result column looks: header, visual type, format, order, hidden. */
public record ColumnSettings(String header, String type, String format, Integer order,
                             Boolean hidden,
                             Map<String, JsonNode> extra) {
    public ColumnSettings {
        extra = Extras.copy(extra);
    }

    public boolean isHidden() {
        return Boolean.TRUE.equals(hidden);
    }
}
