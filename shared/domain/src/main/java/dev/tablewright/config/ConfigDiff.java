package dev.tablewright.config;


import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a proposed config changes against its base.
 * Columns are identified by result key, joins by alias (or table), filters by column and operator, sorts by column;
 * each section lists the keys added and removed and, for keys in both, what changed. {@code settings} covers the
 * rest (name, description, base table, page size, sort order).
 */
public record ConfigDiff(Section columns, Section joins, Section filters, Section sorts, List<String> settings) {

    /** One part of the config: keys added, removed, and changed (with a short description of each change). */
    public record Section(List<String> added, List<String> removed, List<Change> changed) {
        public Section {
            added = List.copyOf(added);
            removed = List.copyOf(removed);
            changed = List.copyOf(changed);
        }

        public boolean isEmpty() {
            return added.isEmpty() && removed.isEmpty() && changed.isEmpty();
        }
    }

    /** A key present on both sides whose fields differ: {@code "hidden: false -> true"}. */
    public record Change(String key, List<String> changes) {
        public Change {
            changes = List.copyOf(changes);
        }
    }

    public ConfigDiff {
        settings = List.copyOf(settings);
    }

    public boolean isEmpty() {
        return columns.isEmpty() && joins.isEmpty() && filters.isEmpty() && sorts.isEmpty() && settings.isEmpty();
    }

    /** The diff from {@code base} (null: a new config, so everything is added) to {@code proposed}. */
    public static ConfigDiff between(TableConfig base, TableConfig proposed) {
        DataSource b = first(base);
        DataSource p = first(proposed);
        List<String> settings = new ArrayList<>();
        if (base != null) {
            field(settings, "name", base.name(), proposed.name());
            field(settings, "description", base.description(), proposed.description());
            field(settings, "base table", b == null ? null : b.schema() + "." + b.source(),
                    p == null ? null : p.schema() + "." + p.source());
            field(settings, "page_size", base.visualSettings() == null ? null : base.visualSettings().pageSize(),
                    proposed.visualSettings() == null ? null : proposed.visualSettings().pageSize());
        }
        Map<String, Map<String, Object>> sortsFrom = sorts(b);
        Map<String, Map<String, Object>> sortsTo = sorts(p);
        List<String> orderFrom = new ArrayList<>(sortsFrom.keySet());
        orderFrom.retainAll(sortsTo.keySet());
        List<String> orderTo = new ArrayList<>(sortsTo.keySet());
        orderTo.retainAll(sortsFrom.keySet());
        if (!orderFrom.equals(orderTo)) {
            settings.add("sort order: " + String.join(", ", orderFrom) + " -> " + String.join(", ", orderTo));
        }
        return new ConfigDiff(section(columns(base, b), columns(proposed, p)), section(joins(b), joins(p)),
                section(filters(b), filters(p)), section(sortsFrom, sortsTo), settings);
    }

    private static DataSource first(TableConfig c) {
        return c == null || c.dataSource() == null || c.dataSource().isEmpty() ? null : c.dataSource().get(0);
    }

    private static void field(List<String> out, String name, Object from, Object to) {
        if (!Objects.equals(from, to)) {
            out.add(name + ": " + from + " -> " + to);
        }
    }

    private static Map<String, Map<String, Object>> columns(TableConfig c, DataSource ds) {
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        if (ds == null || ds.select() == null || ds.select().columns() == null) {
            return out;
        }
        Map<String, ColumnSettings> settings = c.visualSettings() == null || c.visualSettings().columns() == null
                ? Map.of() : c.visualSettings().columns();
        for (SelectColumn col : ds.select().columns()) {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("name", col.name());
            fields.put("table", col.table());
            ColumnSettings s = settings.get(col.resultKey());
            fields.put("header", s == null ? null : s.header());
            fields.put("type", s == null ? null : s.type());
            fields.put("format", s == null ? null : s.format());
            fields.put("order", s == null ? null : s.order());
            fields.put("hidden", s != null && s.isHidden());
            out.put(col.resultKey(), fields);
        }
        return out;
    }

    private static Map<String, Map<String, Object>> joins(DataSource ds) {
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        if (ds == null || ds.select() == null || ds.select().foreignTables() == null) {
            return out;
        }
        for (ForeignTable j : ds.select().foreignTables()) {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("table", j.schema() + "." + j.table());
            fields.put("join_type", j.joinType());
            fields.put("relationship_from", j.relationshipFrom());
            fields.put("relationship_to", j.relationshipTo());
            out.put(j.reference(), fields);
        }
        return out;
    }

    private static Map<String, Map<String, Object>> filters(DataSource ds) {
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        if (ds == null || ds.filters() == null) {
            return out;
        }
        for (Filter f : ds.filters()) {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("value", f.value() == null || f.value().isNull() ? null : f.value().toString());
            fields.put("label", f.label());
            String key = f.column() + " " + f.operator();
            String unique = key;
            for (int n = 2; out.containsKey(unique); n++) {
                unique = key + " #" + n;
            }
            out.put(unique, fields);
        }
        return out;
    }

    private static Map<String, Map<String, Object>> sorts(DataSource ds) {
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        if (ds == null || ds.sort() == null) {
            return out;
        }
        for (Sort s : ds.sort()) {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("direction", s.direction() == null ? "asc" : s.direction().toLowerCase(java.util.Locale.ROOT));
            out.putIfAbsent(s.column(), fields);
        }
        return out;
    }

    private static Section section(Map<String, Map<String, Object>> from, Map<String, Map<String, Object>> to) {
        List<String> added = new ArrayList<>();
        List<String> removed = new ArrayList<>();
        List<Change> changed = new ArrayList<>();
        to.keySet().stream().filter(k -> !from.containsKey(k)).forEach(added::add);
        from.keySet().stream().filter(k -> !to.containsKey(k)).forEach(removed::add);
        for (Map.Entry<String, Map<String, Object>> e : to.entrySet()) {
            Map<String, Object> a = from.get(e.getKey());
            if (a == null) {
                continue;
            }
            List<String> changes = new ArrayList<>();
            for (Map.Entry<String, Object> f : e.getValue().entrySet()) {
                if (!Objects.equals(a.get(f.getKey()), f.getValue())) {
                    changes.add(f.getKey() + ": " + a.get(f.getKey()) + " -> " + f.getValue());
                }
            }
            if (!changes.isEmpty()) {
                changed.add(new Change(e.getKey(), changes));
            }
        }
        return new Section(added, removed, changed);
    }
}
