package dev.tablewright.config;

import dev.tablewright.config.TableBuilderState.BaseTable;
import dev.tablewright.config.TableBuilderState.Column;
import dev.tablewright.config.TableBuilderState.FilterRule;
import dev.tablewright.config.TableBuilderState.Join;
import dev.tablewright.config.TableBuilderState.JoinedTable;
import dev.tablewright.config.TableBuilderState.SortRule;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one mapping between the builder's {@link TableBuilderState} and the Config wire format. State → config can
 * start from the previous config, so that what the state does not carry (id, name, description, version,
 * page size, unknown fields of every object, matched by result key / alias / column) survives the trip.
 */
public final class BuilderStateMapping {

    private BuilderStateMapping() {
    }

    public static TableBuilderState toState(TableConfig config) {
        if (config == null || config.dataSource() == null || config.dataSource().isEmpty() || config.dataSource().get(0) == null) {
            return new TableBuilderState(null, null, null, null, null, null);
        }
        DataSource ds = config.dataSource().get(0);
        Map<String, ColumnSettings> settings = config.visualSettings() == null || config.visualSettings().columns() == null
                ? Map.of() : config.visualSettings().columns();
        List<JoinedTable> tables = new ArrayList<>();
        List<Join> joins = new ArrayList<>();
        if (ds.select() != null && ds.select().foreignTables() != null) {
            for (ForeignTable ft : ds.select().foreignTables()) {
                if (ft == null) {
                    continue;
                }
                tables.add(new JoinedTable(ft.schema(), ft.table(), ft.reference()));
                joins.add(new Join(ft.reference(), ft.joinType(), ft.relationshipFrom(), ft.relationshipTo()));
            }
        }
        List<Column> columns = new ArrayList<>();
        if (ds.select() != null && ds.select().columns() != null) {
            for (SelectColumn c : ds.select().columns()) {
                if (c == null) {
                    continue;
                }
                ColumnSettings cs = c.resultKey() == null ? null : settings.get(c.resultKey());
                columns.add(cs == null
                        ? new Column(c.name(), c.table(), c.alias(), null, null, null, null, null)
                        : new Column(c.name(), c.table(), c.alias(), cs.type(), cs.format(), cs.header(), cs.order(), cs.hidden()));
            }
        }
        List<FilterRule> filters = new ArrayList<>();
        if (ds.filters() != null) {
            for (Filter f : ds.filters()) {
                if (f != null) {
                    filters.add(new FilterRule(f.column(), f.operator(), f.value(), f.label()));
                }
            }
        }
        List<SortRule> sorts = new ArrayList<>();
        if (ds.sort() != null) {
            for (Sort s : ds.sort()) {
                if (s != null) {
                    sorts.add(new SortRule(s.column(), s.direction()));
                }
            }
        }
        return new TableBuilderState(new BaseTable(ds.schema(), ds.source()), tables, columns, filters, joins, sorts);
    }

    /** With a previous config, a list it did not have stays absent when the state leaves it empty. */
    private static <T> List<T> keepAbsent(TableConfig previous, List<T> before, List<T> now) {
        return previous != null && before == null && now.isEmpty() ? null : now;
    }

    public static TableConfig toConfig(TableBuilderState state) {
        return toConfig(state, null);
    }

    /** The config of {@code state}; metadata and unknown fields come from {@code previous} (may be null). */
    public static TableConfig toConfig(TableBuilderState state, TableConfig previous) {
        DataSource before = previous == null || previous.dataSource() == null || previous.dataSource().isEmpty()
                ? null : previous.dataSource().get(0);
        Select selectBefore = before == null ? null : before.select();
        VisualSettings vsBefore = previous == null ? null : previous.visualSettings();

        Map<String, SelectColumn> columnsBefore = new HashMap<>();
        if (selectBefore != null && selectBefore.columns() != null) {
            selectBefore.columns().forEach(c -> {
                if (c != null && c.resultKey() != null) {
                    columnsBefore.putIfAbsent(c.resultKey(), c);
                }
            });
        }
        Map<String, ForeignTable> joinsBefore = new HashMap<>();
        if (selectBefore != null && selectBefore.foreignTables() != null) {
            selectBefore.foreignTables().forEach(ft -> {
                if (ft != null && ft.reference() != null) {
                    joinsBefore.putIfAbsent(ft.reference(), ft);
                }
            });
        }
        Map<String, ColumnSettings> settingsBefore = vsBefore == null || vsBefore.columns() == null ? Map.of() : vsBefore.columns();

        // joins: one foreign table per joined table, its join shape matched by alias
        Map<String, Join> joinByAlias = new HashMap<>();
        state.joins().forEach(j -> {
            if (j != null && j.alias() != null) {
                joinByAlias.putIfAbsent(j.alias(), j);
            }
        });
        List<ForeignTable> foreign = new ArrayList<>();
        for (JoinedTable t : state.dataSources()) {
            if (t == null) {
                continue;
            }
            String ref = t.alias() != null ? t.alias() : t.table();
            Join j = ref == null ? null : joinByAlias.get(ref);
            ForeignTable old = ref == null ? null : joinsBefore.get(ref);
            String alias = t.alias() != null ? t.alias() : old == null ? null : old.alias();
            foreign.add(new ForeignTable(t.schema(), t.table(), alias, j == null ? null : j.joinType(),
                    j == null ? null : j.relationshipFrom(), j == null ? null : j.relationshipTo(), old == null ? null : old.extra()));
        }

        List<SelectColumn> columns = new ArrayList<>();
        LinkedHashMap<String, ColumnSettings> settings = new LinkedHashMap<>();
        for (Column c : state.columns()) {
            if (c == null) {
                continue;
            }
            String key = c.resultKey();
            SelectColumn oldColumn = key == null ? null : columnsBefore.get(key);
            columns.add(new SelectColumn(c.column(), c.table(), c.alias(), oldColumn == null ? null : oldColumn.extra()));
            if (key != null) {
                ColumnSettings old = settingsBefore.get(key);
                settings.put(key, new ColumnSettings(c.header(), c.type(), c.format(), c.order(), c.hidden(),
                        old == null ? null : old.extra()));
            }
        }

        List<Filter> filters = new ArrayList<>();
        List<Filter> filtersBefore = before == null || before.filters() == null ? List.of() : before.filters();
        for (FilterRule f : state.filters()) {
            if (f == null) {
                continue;
            }
            Filter old = null;
            for (Filter b : filtersBefore) {
                if (b != null && java.util.Objects.equals(b.column(), f.column()) && java.util.Objects.equals(b.operator(), f.operator())) {
                    old = b;
                    break;
                }
            }
            filters.add(new Filter(f.column(), f.operator(), f.value(), f.label(), old == null ? null : old.extra()));
        }
        List<Sort> sorts = new ArrayList<>();
        List<Sort> sortsBefore = before == null || before.sort() == null ? List.of() : before.sort();
        for (SortRule s : state.sortBy()) {
            if (s == null) {
                continue;
            }
            Sort old = null;
            for (Sort b : sortsBefore) {
                if (b != null && java.util.Objects.equals(b.column(), s.column())) {
                    old = b;
                    break;
                }
            }
            sorts.add(new Sort(s.column(), s.direction(), old == null ? null : old.extra()));
        }

        BaseTable base = state.baseTable();
        boolean hadSelect = previous == null || selectBefore != null;
        Select select = !hadSelect && columns.isEmpty() && foreign.isEmpty() ? null : new Select(
                keepAbsent(previous, selectBefore == null ? null : selectBefore.columns(), columns),
                keepAbsent(previous, selectBefore == null ? null : selectBefore.foreignTables(), foreign),
                selectBefore == null ? null : selectBefore.extra());
        DataSource ds = new DataSource(base == null ? null : base.schema(), base == null ? null : base.table(), select,
                keepAbsent(previous, before == null ? null : before.filters(), filters),
                keepAbsent(previous, before == null ? null : before.sort(), sorts), before == null ? null : before.extra());
        List<DataSource> sources = new ArrayList<>();
        sources.add(ds);
        if (previous != null && previous.dataSource() != null && previous.dataSource().size() > 1) {
            sources.addAll(previous.dataSource().subList(1, previous.dataSource().size()));
        }
        VisualSettings vs = previous != null && vsBefore == null && settings.isEmpty() ? null
                : new VisualSettings(vsBefore == null ? null : vsBefore.pageSize(),
                previous != null && vsBefore != null && vsBefore.columns() == null && settings.isEmpty() ? null : settings,
                vsBefore == null ? null : vsBefore.extra());
        return new TableConfig(previous == null ? null : previous.id(), previous == null ? null : previous.name(),
                previous == null ? null : previous.description(), previous == null ? null : previous.version(),
                sources, vs, previous == null ? null : previous.extra());
    }
}
