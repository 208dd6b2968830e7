package dev.tablewright.config;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/**
 * The builder page's own editor state, as the chat request carries it in
 * {@code context.state} (camelCase JSON). It maps both ways to {@link TableConfig} through {@link BuilderStateMapping}
 * only: {@code baseTable} ↔ {@code data_source[0].schema/source}, {@code dataSources} and {@code joins} ↔
 * {@code select.foreign_tables}, {@code columns} ↔ {@code select.columns} + {@code visual_settings.columns},
 * {@code filters} ↔ {@code filters}, {@code sortBy} ↔ {@code sort}.
 */
public record TableBuilderState(BaseTable baseTable, List<JoinedTable> dataSources, List<Column> columns,
                                List<FilterRule> filters, List<Join> joins, List<SortRule> sortBy) {

    public TableBuilderState {
        dataSources = dataSources == null ? List.of() : List.copyOf(dataSources);
        columns = columns == null ? List.of() : List.copyOf(columns);
        filters = filters == null ? List.of() : List.copyOf(filters);
        joins = joins == null ? List.of() : List.copyOf(joins);
        sortBy = sortBy == null ? List.of() : List.copyOf(sortBy);
    }

    /** The table the builder starts from. */
    public record BaseTable(String schema, String table) {
    }

    /** A table joined in, under {@code alias} (the name columns and joins refer to it by). */
    public record JoinedTable(String schema, String table, String alias) {
    }

    /** How the joined table {@code alias} is joined: type and the two relationship ends. */
    public record Join(String alias, String joinType, String relationshipFrom, String relationshipTo) {
    }

    /**
     * A selected column with its display settings. {@code table} is a join alias (null: the base table);
     * {@code alias} the result key when it is not {@code column}.
     */
    public record Column(String column, String table, String alias, String type, String format, String header,
                         Integer order, Boolean hidden) {
        public String resultKey() {
            return alias != null && !alias.isEmpty() ? alias : column;
        }
    }

    public record FilterRule(String column, String operator, JsonNode value, String label) {
    }

    public record SortRule(String column, String direction) {
    }
}
