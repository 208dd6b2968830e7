package dev.tablewright.config;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Map;

/** A joined table. {@code relationship_from}/{@code relationship_to} are {@code <table-or-alias>.<column>}. */
public record ForeignTable(String schema, String table, String alias,
                           String joinType,
                           String relationshipFrom,
                           String relationshipTo,
                           Map<String, JsonNode> extra) {
    public ForeignTable {
        extra = Extras.copy(extra);
    }

    /** The name other parts of the config use for this join: its alias, else its table name. */
    public String reference() {
        return alias != null && !alias.isEmpty() ? alias : table;
    }
}
