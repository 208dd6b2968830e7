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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Iterator;
import java.util.Set;

/**
 * A mutable working copy of the first data source and the visual settings of a config, which an operation edits
 * and then turns back into an immutable {@link TableConfig}. Everything it does not touch (metadata, unknown
 * fields, lists that were absent) comes back unchanged.
 */
final class ConfigDraft {

    private final TableConfig original;
    private final DataSource source;
    final List<SelectColumn> columns;
    final List<ForeignTable> joins;
    final LinkedHashMap<String, ColumnSettings> settings;
    final List<Filter> filters;
    final List<Sort> sorts;

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
    int indexOfKey(String key) {
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
        for (Iterator<Filter> it = filters.iterator(); it.hasNext(); ) {
            Filter f = it.next();
            if (f != null && keys.contains(f.column())) {
                it.remove();
                removed.add("filter " + f.column() + " " + f.operator() + " removed");
            }
        }
        for (Iterator<Sort> it = sorts.iterator(); it.hasNext(); ) {
            Sort so = it.next();
            if (so != null && keys.contains(so.column())) {
                it.remove();
                removed.add("sort on " + so.column() + " removed");
            }
        }
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
