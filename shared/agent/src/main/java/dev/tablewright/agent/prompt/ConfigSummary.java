package dev.tablewright.agent.prompt;

import dev.tablewright.config.ColumnSettings;
import dev.tablewright.config.DataSource;
import dev.tablewright.config.Filter;
import dev.tablewright.config.ForeignTable;
import dev.tablewright.config.SelectColumn;
import dev.tablewright.config.Sort;
import dev.tablewright.config.TableConfig;
import dev.tablewright.json.Json;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The current config in a few lines for the system prompt: base table, columns with their visual type, joins,
 * filters, sort. The model reads this instead of the whole wire format; the tools get the config itself.
 */
public final class ConfigSummary {

    private ConfigSummary() {
    }

    public static String render(TableConfig config) {
        if (config == null || config.dataSource() == null || config.dataSource().isEmpty()) {
            return "No base table chosen yet.\n";
        }
        DataSource ds = config.dataSource().get(0);
        Map<String, ColumnSettings> settings = config.visualSettings() == null || config.visualSettings().columns() == null
                ? Map.of() : config.visualSettings().columns();
        StringBuilder out = new StringBuilder();
        out.append("Base table: ").append(qualified(ds.schema(), ds.source())).append('\n');
        List<String> columns = new ArrayList<>();
        if (ds.select() != null && ds.select().columns() != null) {
            for (SelectColumn c : ds.select().columns()) {
                String key = c.alias() != null ? c.alias() : c.name();
                ColumnSettings s = settings.get(key);
                StringBuilder col = new StringBuilder();
                col.append(c.table() != null ? c.table() + "." + c.name() : c.name());
                if (c.alias() != null) {
                    col.append(" as ").append(c.alias());
                }
                if (s != null && s.type() != null) {
                    col.append(" (").append(s.type()).append(Boolean.TRUE.equals(s.hidden()) ? ", hidden" : "").append(')');
                }
                columns.add(col.toString());
            }
        }
        out.append("Columns (").append(columns.size()).append("): ").append(columns.isEmpty() ? "none" : String.join(", ", columns)).append('\n');
        List<String> joins = new ArrayList<>();
        if (ds.select() != null && ds.select().foreignTables() != null) {
            for (ForeignTable f : ds.select().foreignTables()) {
                joins.add(f.joinType() + " " + qualified(f.schema(), f.table()) + (f.alias() != null ? " as " + f.alias() : "")
                        + " on " + f.relationshipFrom() + " = " + f.relationshipTo());
            }
        }
        out.append("Joins: ").append(joins.isEmpty() ? "none" : String.join("; ", joins)).append('\n');
        List<String> filters = new ArrayList<>();
        if (ds.filters() != null) {
            for (Filter f : ds.filters()) {
                filters.add(f.column() + " " + f.operator() + (f.value() == null || f.value().isNull() ? "" : " " + Json.write(f.value())));
            }
        }
        out.append("Filters: ").append(filters.isEmpty() ? "none" : String.join("; ", filters)).append('\n');
        List<String> sorts = new ArrayList<>();
        if (ds.sort() != null) {
            for (Sort s : ds.sort()) {
                sorts.add(s.column() + " " + s.direction());
            }
        }
        out.append("Sort: ").append(sorts.isEmpty() ? "none" : String.join(", ", sorts)).append('\n');
        return out.toString();
    }

    private static String qualified(String schema, String table) {
        return schema == null || schema.isEmpty() ? String.valueOf(table) : schema + "." + table;
    }
}
