package dev.tablewright.config;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Map;

/** A sort on a result column; direction {@code asc} or {@code desc}. */
public record Sort(String column, String direction,
                   Map<String, JsonNode> extra) {
    public Sort {
        extra = Extras.copy(extra);
    }
}
