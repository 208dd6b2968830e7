package dev.tablewright.config;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Map;

/** One selected column: {@code name} of the column, {@code table} the joined alias it comes from (absent: base table). */
public record SelectColumn(String name, String table, String alias,
                           Map<String, JsonNode> extra) {

    public SelectColumn {
        extra = Extras.copy(extra);
    }

    public SelectColumn(String name, String table, String alias) {
        this(name, table, alias, null);
    }

    /** The key of this column in the result and in {@code visual_settings.columns}: its alias, else its name. */
    public String resultKey() {
        return alias != null && !alias.isEmpty() ? alias : name;
    }
}
