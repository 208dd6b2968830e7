package dev.tablewright.operations;

import dev.tablewright.grounding.CatalogLookup;
import dev.tablewright.config.ColumnSettings;
import dev.tablewright.config.ForeignTable;
import dev.tablewright.config.SelectColumn;
import dev.tablewright.config.TableConfig;
import dev.tablewright.reference.PgTypeMapping;
import dev.tablewright.schema.ClosestNames;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.validation.Identifiers;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code apply_column_change}: adds columns to both {@code select.columns} and {@code visual_settings.columns}
 * (visual type from the PostgreSQL type, a default format for dates and times, the next order when visible
 * columns are ordered), or removes them from both (with the filters and sorts on them). The column selection
 * logic here is shared with the filter, sort and join operations.
 */
public final class ColumnChange {

    public enum Operation { ADD, REMOVE, UPDATE }

    /** At most this many columns per call. */
    public static final int MAX_COLUMNS_PER_CALL = 100;

    private final SchemaCatalog catalog;

    public ColumnChange() {
        this(null);
    }

    /** @param catalog the live schema to ground names in; null runs ungrounded (with a warning) */
    public ColumnChange(SchemaCatalog catalog) {
        this.catalog = catalog;
    }

    public OperationResult add(TableConfig config, List<ColumnSpec> columns) {
        return apply(config, Operation.ADD, columns);
    }

    public OperationResult remove(TableConfig config, List<ColumnSpec> columns) {
        return apply(config, Operation.REMOVE, columns);
    }

    public OperationResult apply(TableConfig config, Operation operation, List<ColumnSpec> columns) {
        ChangeLog log = new ChangeLog();
        CatalogLookup grounding = CatalogLookup.reportingOutages(catalog);
        ConfigDraft draft = Operations.draft(config, log);
        if (draft == null) {
            return log.finish(null);
        }
        if (operation == null) {
            log.error("operation", "operation is missing; one of add, remove");
            return log.finish(draft);
        }
        if (columns == null || columns.isEmpty()) {
            log.error("columns", "columns is empty; give at least one column");
            return log.finish(draft);
        }
        if (columns.size() > MAX_COLUMNS_PER_CALL) {
            log.error("columns", "too many columns in one call: " + columns.size() + " (at most " + MAX_COLUMNS_PER_CALL + ")");
            return log.finish(draft);
        }
        if (operation == Operation.ADD) {
            grounding.noteIfUngrounded(log.problems);
        }
        for (int i = 0; i < columns.size(); i++) {
            ColumnSpec spec = columns.get(i);
            String path = "columns[" + i + "]";
            if (spec == null) {
                log.error(path, "column is empty");
            } else if (operation == Operation.ADD) {
                new ColumnSelection(draft, log, grounding).select(spec, path);
            } else if (operation == Operation.UPDATE) {
                update(draft, spec, path, log);
            } else {
                deselect(draft, spec, path, log);
            }
        }
        return log.finish(draft);
    }

    // ---------------------------------------------------------------- shared selection logic

    /** Where a column comes from: {@code ref} null for the base table, else the join's reference. */
    record Source(String ref, String schema, String table) {
    }

    /** Resolves {@code source_table}: absent or the base table → base; a join's alias; a joined table's name if joined once. */
    static Source resolveSource(ConfigDraft d, String sourceTable, String sourceSchema, String field, ChangeLog log) {
        if (sourceTable == null || sourceTable.isEmpty()) {
            return new Source(null, d.baseSchema(), d.baseTable());
        }
        if (!Identifiers.check(log.problems, field, "source_table", sourceTable)) {
            return null;
        }
        ForeignTable byRef = d.join(sourceTable);
        if (byRef != null) {
            return new Source(byRef.reference(), byRef.schema(), byRef.table());
        }
        if (sourceTable.equals(d.baseTable()) && (sourceSchema == null || sourceSchema.equals(d.baseSchema()))) {
            return new Source(null, d.baseSchema(), d.baseTable());
        }
        List<ForeignTable> joined = d.joinsOfTable(sourceTable, sourceSchema);
        if (joined.size() == 1) {
            ForeignTable ft = joined.get(0);
            return new Source(ft.reference(), ft.schema(), ft.table());
        }
        if (joined.size() > 1) {
            List<String> refs = new ArrayList<>();
            joined.forEach(ft -> refs.add(ft.reference()));
            log.error(field, "table " + Identifiers.quote(sourceTable) + " is joined " + joined.size() + " times (as "
                    + String.join(", ", refs) + "); pass source_table as one of those aliases");
            return null;
        }
        List<String> known = d.joinReferences();
        log.error(field, "table " + Identifiers.quote(sourceTable) + " is neither the base table " + Identifiers.quote(d.baseTable())
                + " nor joined; join it first with apply_join_change." + ClosestNames.hint(sourceTable, known));
        return null;
    }

    /**
     * Changes the display settings of a selected column: {@code header}, {@code format}, {@code hidden} (hiding drops
     * its order; showing gives it the next order when visible columns are ordered), {@code pg_type} (a new visual
     * type, with its default format when the old format does not fit).
     */
    static void update(ConfigDraft d, ColumnSpec spec, String path, ChangeLog log) {
        ColumnSpec lookup = new ColumnSpec(spec.name(), spec.sourceTable(), spec.sourceSchema(), null,
                spec.alias() != null && d.isSelected(spec.alias()) ? spec.alias() : null, null, null, null);
        String key = findKey(d, lookup, path, log);
        if (key == null) {
            return;
        }
        ColumnSettings cs = d.settingsOf(key);
        if (cs == null) {
            cs = new ColumnSettings(null, null, null, null, null, null);
        }
        String header = cs.header();
        String type = cs.type();
        String format = cs.format();
        Integer order = cs.order();
        Boolean hidden = cs.hidden();
        List<String> changes = new ArrayList<>();
        if (spec.pgType() != null) {
            PgTypeMapping mapping = PgTypeMapping.of(spec.pgType());
            if (mapping.warning() != null) {
                log.warning(path + ".pg_type", mapping.warning());
            }
            if (!mapping.visualType().wireName().equals(type)) {
                type = mapping.visualType().wireName();
                changes.add("type " + type);
                if (spec.format() == null && (format == null || !mapping.visualType().formats().contains(format))) {
                    format = mapping.visualType().defaultFormat();
                    if (format != null) {
                        changes.add("format " + format);
                    }
                }
            }
        }
        if (spec.header() != null && !spec.header().equals(header)) {
            header = spec.header();
            changes.add("header " + Identifiers.quote(header));
        }
        if (spec.format() != null && !spec.format().equals(format)) {
            format = spec.format().isEmpty() ? null : spec.format();
            changes.add(format == null ? "format cleared" : "format " + format);
        }
        if (spec.hidden() != null && spec.hidden() != cs.isHidden()) {
            if (spec.hidden()) {
                hidden = Boolean.TRUE;
                order = null;
                changes.add("hidden");
            } else {
                hidden = null;
                order = d.nextOrder();
                changes.add(order == null ? "visible" : "visible (order " + order + ")");
            }
        }
        if (changes.isEmpty()) {
            log.warning(path, "nothing to change for " + Identifiers.quote(key) + ": give header, format, hidden or pg_type");
            return;
        }
        d.updateSettings(key, new ColumnSettings(header, type, format, order, hidden, cs.extra()));
        log.applied(key + " updated: " + String.join(", ", changes));
    }

    /** Removes a column from both lists, with the filters and sorts on it. False after an error. */
    static boolean deselect(ConfigDraft d, ColumnSpec spec, String path, ChangeLog log) {
        String key = findKey(d, spec, path, log);
        if (key == null) {
            return false;
        }
        d.deselect(key);
        log.applied(key + " removed from select.columns and visual_settings.columns");
        d.removeFiltersAndSortsOn(Set.of(key)).forEach(log::applied);
        return true;
    }

    /** The result key a spec names: its alias, else its name as a result key, else the one column of that name. */
    static String findKey(ConfigDraft d, ColumnSpec spec, String path, ChangeLog log) {
        String wanted = spec.alias() != null && !spec.alias().isEmpty() ? spec.alias() : spec.name();
        if (wanted == null || wanted.isEmpty()) {
            log.error(path + ".name", "column name is missing");
            return null;
        }
        if (d.isSelected(wanted)) {
            return wanted;
        }
        String asIdentifier = ResultKeys.identifierOf(wanted);
        if (asIdentifier != null && d.isSelected(asIdentifier)) {
            return asIdentifier;
        }
        List<String> byName = new ArrayList<>();
        for (SelectColumn c : d.columns()) {
            if (c != null && wanted.equals(c.name())
                    && (spec.sourceTable() == null || spec.sourceTable().equals(c.table())
                    || (c.table() == null && spec.sourceTable().equals(d.baseTable())))) {
                byName.add(c.resultKey());
            }
        }
        if (byName.size() == 1) {
            return byName.get(0);
        }
        if (byName.size() > 1) {
            log.error(path + ".name", "column " + Identifiers.quote(wanted) + " is selected " + byName.size()
                    + " times (as " + String.join(", ", byName) + "); name the one you mean by its alias");
            return null;
        }
        List<String> keys = d.resultKeys();
        log.error(path + ".name", "column " + Identifiers.quote(wanted) + " is not selected." + ClosestNames.hint(wanted, keys));
        return null;
    }
}
