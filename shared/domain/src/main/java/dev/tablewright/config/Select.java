package dev.tablewright.config;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;

public record Select(List<SelectColumn> columns,
                     List<ForeignTable> foreignTables,
                     Map<String, JsonNode> extra) {
    public Select {
        extra = Extras.copy(extra);
    }
}
