package dev.tablewright.config;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;

public record Select(List<SelectColumn> columns,
                     @JsonProperty("foreign_tables") List<ForeignTable> foreignTables,
                     @JsonAnySetter @JsonAnyGetter Map<String, JsonNode> extra) {
    public Select {
        extra = Extras.copy(extra);
    }
}
