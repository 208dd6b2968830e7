package dev.tablewright.operations;

import dev.tablewright.grounding.CatalogLookup;
import dev.tablewright.config.ColumnSettings;
import dev.tablewright.config.ForeignTable;
import dev.tablewright.config.SelectColumn;
import dev.tablewright.config.TableConfig;
import dev.tablewright.reference.PgTypeMapping;
import dev.tablewright.reference.VisualType;
import dev.tablewright.schema.ClosestNames;
import dev.tablewright.schema.ColumnInfo;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.schema.TableInfo;
import dev.tablewright.validation.Identifiers;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
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
                select(draft, spec, path, log, grounding, false);
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

    /**
     * Selects a column into the draft, or finds it already selected. {@code implicit}: the column is needed by a
     * filter or sort (added hidden, reported as such; no warning when already there).
     *
     * @return the column's result key, or null after an error
     */
    static String select(ConfigDraft d, ColumnSpec spec, String path, ChangeLog log, CatalogLookup grounding, boolean implicit) {
        String namePath = implicit ? path : path + ".name";
        if (!Identifiers.check(log.problems, namePath, "column name", spec.name())) {
            return null;
        }
        Source source = resolveSource(d, spec.sourceTable(), spec.sourceSchema(), path + ".source_table", log);
        if (source == null) {
            return null;
        }
        String alias = null;
        String headerFromAlias = null;
        if (spec.alias() != null && !spec.alias().isEmpty()) {
            if (Identifiers.isPlain(spec.alias())) {
                alias = spec.alias();
            } else {
                String id = ResultKeys.identifierOf(spec.alias());
                if (id == null || spec.alias().length() > 200) {
                    log.error(path + ".alias", Identifiers.problem("alias", spec.alias()));
                    return null;
                }
                alias = id;
                headerFromAlias = spec.alias();
                log.warning(path + ".alias", "alias " + Identifiers.quote(spec.alias()) + " is not an SQL identifier: it is used as the header, with result key " + id);
            }
            if (alias.equals(spec.name()) && source.ref() == null) {
                alias = null;
            }
        }
        // Already selected (same column of the same table, under the same key if an alias was asked for)?
        for (SelectColumn c : d.columns()) {
            if (c != null && spec.name().equals(c.name()) && Objects.equals(source.ref(), c.table())
                    && (alias == null || alias.equals(c.resultKey()))) {
                return alreadySelected(d, c.resultKey(), spec, path, log, implicit);
            }
        }
        // Grounding: the column must exist; its type comes from the catalogue when not given.
        String pgType = spec.pgType();
        boolean isEnum = false;
        if (grounding.grounded()) {
            Optional<TableInfo> table = grounding.table(source.schema(), source.table(), path + ".source_table", log.problems);
            if (table.isEmpty()) {
                return null;
            }
            Optional<ColumnInfo> column = grounding.column(table.get(), spec.name(), namePath, log.problems);
            if (column.isEmpty()) {
                return null;
            }
            String real = column.get().pgType();
            isEnum = column.get().userDefinedEnum();
            if (pgType != null && real != null
                    && PgTypeMapping.of(pgType).visualType() != PgTypeMapping.of(real, isEnum).visualType()) {
                log.warning(path + ".pg_type", "pg_type " + Identifiers.quote(pgType) + " differs from the database's "
                        + Identifiers.quote(real) + "; the database's type is used");
            }
            if (real != null) {
                pgType = real;
            }
        }
        PgTypeMapping mapping = PgTypeMapping.of(pgType, isEnum);
        if (mapping.warning() != null) {
            log.warning(path + ".pg_type", "column " + Identifiers.quote(spec.name()) + ": " + mapping.warning());
        }
        VisualType type = mapping.visualType();
        // The result key: alias, else name; a joined column whose name is taken gets <join>_<name>.
        String key = alias != null ? alias : spec.name();
        if (d.isSelected(key)) {
            if (alias == null && source.ref() != null) {
                String derived = ResultKeys.joined(source.ref(), spec.name());
                if (derived == null || d.isSelected(derived)) {
                    log.error(path + ".alias", "result key " + Identifiers.quote(key) + " is already used; pass an alias for this column");
                    return null;
                }
                alias = derived;
                key = derived;
                log.applied(spec.name() + " of " + source.ref() + " aliased as " + derived + " (" + spec.name() + " is already a result column)");
            } else {
                log.error(path + (alias != null ? ".alias" : ".name"), "result key " + Identifiers.quote(key)
                        + " is already used by another column; pass a different alias");
                return null;
            }
        }
        boolean hidden = implicit || spec.isHidden();
        String format = spec.format() != null ? spec.format() : type.defaultFormat();
        Integer order = hidden ? null : d.nextOrder();
        String header = spec.header() != null ? spec.header() : headerFromAlias != null ? headerFromAlias : ResultKeys.header(key);
        d.select(new SelectColumn(spec.name(), source.ref(), alias),
                new ColumnSettings(header, type.wireName(), format, order, hidden ? Boolean.TRUE : null, null));
        if (implicit) {
            log.applied(key + " added as a hidden column");
        } else {
            StringBuilder s = new StringBuilder(key).append(" added to select.columns and visual_settings.columns (")
                    .append(type.wireName());
            if (format != null) {
                s.append(", format ").append(format);
            }
            if (order != null) {
                s.append(", order ").append(order);
            }
            if (hidden) {
                s.append(", hidden");
            }
            log.applied(s.append(')').toString());
        }
        return key;
    }

    private static String alreadySelected(ConfigDraft d, String key, ColumnSpec spec, String path, ChangeLog log, boolean implicit) {
        ColumnSettings cs = d.settingsOf(key);
        if (!implicit && !spec.isHidden() && cs != null && cs.isHidden()) {
            Integer order = d.nextOrder();
            d.updateSettings(key, new ColumnSettings(cs.header(), cs.type(), cs.format(), order, null, cs.extra()));
            log.applied(key + " was hidden and is now visible" + (order == null ? "" : " (order " + order + ")"));
        } else if (!implicit) {
            log.warning(path, "column " + Identifiers.quote(key) + " is already selected; unchanged");
        }
        return key;
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
