package dev.tablewright.operations;

import dev.tablewright.config.ColumnSettings;
import dev.tablewright.config.DataSource;
import dev.tablewright.config.Filter;
import dev.tablewright.config.ForeignTable;
import dev.tablewright.config.Select;
import dev.tablewright.config.SelectColumn;
import dev.tablewright.config.Sort;
import dev.tablewright.config.TableConfig;
import dev.tablewright.config.VisualSettings;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Iterator;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A mutable working copy of the first data source and the visual settings of a config, which an operation edits
 * and then turns back into an immutable {@link TableConfig}. Everything it does not touch (metadata, unknown
 * fields, lists that were absent) comes back unchanged.
 */
final class ConfigDraft {

    private final TableConfig original;
    private final DataSource source;
    private final List<SelectColumn> columns;
    private final List<ForeignTable> joins;
    private final LinkedHashMap<String, ColumnSettings> settings;
    private final List<Filter> filters;
    private final List<Sort> sorts;

    private ConfigDraft(TableConfig original) {
        this.original = original;
        this.source = original.dataSource().get(0);
        Select select = source.select();
        this.columns = copy(select == null ? null : select.columns());
        this.joins = copy(select == null ? null : select.foreignTables());
        VisualSettings vs = original.visualSettings();
        this.settings = vs == null || vs.columns() == null ? new LinkedHashMap<>() : new LinkedHashMap<>(vs.columns());
        this.filters = copy(source.filters());
        this.sorts = copy(source.sort());
    }

    /** A draft of the config, or null when it has no base table to work on. */
    static ConfigDraft of(TableConfig config) {
        if (config == null || config.dataSource() == null || config.dataSource().isEmpty() || config.dataSource().get(0) == null) {
            return null;
        }
        return new ConfigDraft(config);
    }

    String baseSchema() {
        return source.schema();
    }

    String baseTable() {
        return source.source();
    }

    // ---- columns: select.columns and visual_settings.columns move together ----

    /** The selected columns, in order (read-only). */
    List<SelectColumn> columns() {
        return Collections.unmodifiableList(columns);
    }

    /** The result keys that have settings, in order. */
    List<String> resultKeys() {
        return new ArrayList<>(settings.keySet());
    }

    ColumnSettings settingsOf(String key) {
        return settings.get(key);
    }

    /** Adds a column to select.columns with its settings under its result key. */
    void select(SelectColumn column, ColumnSettings columnSettings) {
        columns.add(column);
        settings.put(column.resultKey(), columnSettings);
    }

    void updateSettings(String key, ColumnSettings columnSettings) {
        settings.put(key, columnSettings);
    }

    /** Removes the selected column with this result key, and its settings. */
    void deselect(String key) {
        int index = indexOfKey(key);
        if (index >= 0) {
            columns.remove(index);
        }
        settings.remove(key);
    }

    /** Removes every column taken from the join (or table) {@code ref}, with its settings; their result keys, in order. */
    List<String> deselectColumnsOf(String ref) {
        List<String> keys = new ArrayList<>();
        for (Iterator<SelectColumn> it = columns.iterator(); it.hasNext(); ) {
            SelectColumn c = it.next();
            if (c != null && ref.equals(c.table())) {
                it.remove();
                settings.remove(c.resultKey());
                keys.add(c.resultKey());
            }
        }
        return keys;
    }

    // ---- joins ----

    /** The joins, in order (read-only). */
    List<ForeignTable> joins() {
        return Collections.unmodifiableList(joins);
    }

    void addJoin(ForeignTable join) {
        joins.add(join);
    }

    void removeJoin(ForeignTable join) {
        joins.remove(join);
    }

    // ---- filters ----

    /** The filter on this result key with this operator, or null. */
    Filter filter(String key, String operator) {
        for (Filter f : filters) {
            if (f != null && key.equals(f.column()) && operator.equals(f.operator())) {
                return f;
            }
        }
        return null;
    }

    /** Replaces the filter on the same result key and operator where there is one, else adds it. */
    void putFilter(Filter filter) {
        Filter existing = filter(filter.column(), filter.operator());
        if (existing != null) {
            filters.set(filters.indexOf(existing), filter);
        } else {
            filters.add(filter);
        }
    }

    /** Removes the filters that match; the removed ones, in order. */
    List<Filter> removeFilters(Predicate<Filter> which) {
        return removeFrom(filters, which);
    }

    // ---- sorts ----

    /** The sort on this result key, or null. */
    Sort sort(String key) {
        for (Sort s : sorts) {
            if (s != null && key.equals(s.column())) {
                return s;
            }
        }
        return null;
    }

    /** Replaces the sort on the same result key where there is one (keeping its place), else appends it. */
    void putSort(Sort sort) {
        Sort existing = sort(sort.column());
        if (existing != null) {
            sorts.set(sorts.indexOf(existing), sort);
        } else {
            sorts.add(sort);
        }
    }

    /** Removes the sorts that match; the removed ones, in order. */
    List<Sort> removeSorts(Predicate<Sort> which) {
        return removeFrom(sorts, which);
    }

    void replaceSorts(List<Sort> replacement) {
        sorts.clear();
        sorts.addAll(replacement);
    }

    private static <T> List<T> removeFrom(List<T> list, Predicate<T> which) {
        List<T> removed = new ArrayList<>();
        for (Iterator<T> it = list.iterator(); it.hasNext(); ) {
            T item = it.next();
            if (item != null && which.test(item)) {
                it.remove();
                removed.add(item);
            }
        }
        return removed;
    }

    /** The join whose reference (alias, else table) is {@code ref}, or null. */
    ForeignTable join(String ref) {
        for (ForeignTable ft : joins) {
            if (ft != null && ref.equals(ft.reference())) {
                return ft;
            }
        }
        return null;
    }

    /** The joins of a table (by its real name), in order. */
    List<ForeignTable> joinsOfTable(String table, String schema) {
        List<ForeignTable> out = new ArrayList<>();
        for (ForeignTable ft : joins) {
            if (ft != null && table.equals(ft.table()) && (schema == null || schema.equals(ft.schema()))) {
                out.add(ft);
            }
        }
        return out;
    }

    List<String> joinReferences() {
        List<String> out = new ArrayList<>();
        for (ForeignTable ft : joins) {
            if (ft != null && ft.reference() != null) {
                out.add(ft.reference());
            }
        }
        return out;
    }

    /** Index of the selected column with this result key, or -1. */
    private int indexOfKey(String key) {
        for (int i = 0; i < columns.size(); i++) {
            SelectColumn c = columns.get(i);
            if (c != null && key.equals(c.resultKey())) {
                return i;
            }
        }
        return -1;
    }

    boolean isSelected(String key) {
        return indexOfKey(key) >= 0;
    }

    /** Under all-or-nothing ordering: the next order if visible columns are ordered, else null. */
    Integer nextOrder() {
        Integer max = null;
        for (ColumnSettings cs : settings.values()) {
            if (cs != null && !cs.isHidden() && cs.order() != null) {
                max = max == null ? cs.order() : Math.max(max, cs.order());
            }
        }
        return max == null ? null : max + 1;
    }

    /** Removes filters and sorts on any of these result keys; returns what it removed, in words. */
    List<String> removeFiltersAndSortsOn(Set<String> keys) {
        List<String> removed = new ArrayList<>();
        removeFilters(f -> keys.contains(f.column())).forEach(f -> removed.add("filter " + f.column() + " " + f.operator() + " removed"));
        removeSorts(s -> keys.contains(s.column())).forEach(s -> removed.add("sort on " + s.column() + " removed"));
        return removed;
    }

    TableConfig toConfig() {
        Select select = source.select();
        Select newSelect = new Select(
                keepAbsent(select == null ? null : select.columns(), columns),
                keepAbsent(select == null ? null : select.foreignTables(), joins),
                select == null ? null : select.extra());
        if (select == null && columns.isEmpty() && joins.isEmpty()) {
            newSelect = null;
        }
        DataSource ds = new DataSource(source.schema(), source.source(), newSelect,
                keepAbsent(source.filters(), filters), keepAbsent(source.sort(), sorts), source.extra());
        List<DataSource> sources = new ArrayList<>(original.dataSource());
        sources.set(0, ds);
        VisualSettings vs = original.visualSettings();
        VisualSettings newVs;
        if (vs == null && settings.isEmpty()) {
            newVs = null;
        } else {
            newVs = new VisualSettings(vs == null ? null : vs.pageSize(),
                    vs != null && vs.columns() == null && settings.isEmpty() ? null : new LinkedHashMap<>(settings),
                    vs == null ? null : vs.extra());
        }
        return new TableConfig(original.id(), original.name(), original.description(), original.version(),
                sources, newVs, original.extra());
    }

    /** An absent list stays absent if the operation left it empty; otherwise the new contents. */
    private static <T> List<T> keepAbsent(List<T> before, List<T> now) {
        if (before == null && now.isEmpty()) {
            return null;
        }
        return new ArrayList<>(now);
    }

    private static <T> List<T> copy(List<T> list) {
        return list == null ? new ArrayList<>() : new ArrayList<>(list);
    }
}
