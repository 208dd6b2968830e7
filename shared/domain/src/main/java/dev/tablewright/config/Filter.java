package dev.tablewright.config;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Map;

/** A filter on a result column ({@code column} is a result key: an alias or a column name). */
public record Filter(String column, String operator, JsonNode value, String label,
                     Map<String, JsonNode> extra) {
    public Filter {
        extra = Extras.copy(extra);
    }
}
