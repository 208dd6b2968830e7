package dev.tablewright.operations;

import dev.tablewright.grounding.CatalogLookup;
import dev.tablewright.config.ColumnSettings;
import dev.tablewright.config.SelectColumn;
import dev.tablewright.reference.PgTypeMapping;
import dev.tablewright.reference.VisualType;
import dev.tablewright.schema.ColumnInfo;
import dev.tablewright.schema.TableInfo;
import dev.tablewright.validation.Identifiers;

import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Selects columns into one operation's draft, grounded in the catalogue: what a column, filter, sort or join change
 * does when it adds a column.
 */
final class ColumnSelection {

    private final ConfigDraft draft;
    private final ChangeLog log;
    private final CatalogLookup grounding;

    ColumnSelection(ConfigDraft draft, ChangeLog log, CatalogLookup grounding) {
        this.draft = draft;
        this.log = log;
        this.grounding = grounding;
    }

    /** A column asked for: selected as asked (visible unless hidden); a warning when it is already selected. */
    String select(ColumnSpec spec, String path) {
        return select(spec, path, false);
    }

    /** A column a filter or sort needs: added hidden and reported as such; nothing said when it is already there. */
    String selectHidden(ColumnSpec spec, String path) {
        return select(spec, path, true);
    }

    /** @return the column's result key, or null after an error */
    private String select(ColumnSpec spec, String path, boolean implicit) {
        String namePath = implicit ? path : path + ".name";
        if (!Identifiers.check(log.problems, namePath, "column name", spec.name())) {
            return null;
        }
        ColumnChange.Source source = ColumnChange.resolveSource(draft, spec.sourceTable(), spec.sourceSchema(), path + ".source_table", log);
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
        for (SelectColumn c : draft.columns()) {
            if (c != null && spec.name().equals(c.name()) && Objects.equals(source.ref(), c.table())
                    && (alias == null || alias.equals(c.resultKey()))) {
                return alreadySelected(c.resultKey(), spec, path, implicit);
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
        if (draft.isSelected(key)) {
            if (alias == null && source.ref() != null) {
                String derived = ResultKeys.joined(source.ref(), spec.name());
                if (derived == null || draft.isSelected(derived)) {
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
        Integer order = hidden ? null : draft.nextOrder();
        String header = spec.header() != null ? spec.header() : headerFromAlias != null ? headerFromAlias : ResultKeys.header(key);
        draft.select(new SelectColumn(spec.name(), source.ref(), alias),
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

    private String alreadySelected(String key, ColumnSpec spec, String path, boolean implicit) {
        ColumnSettings cs = draft.settingsOf(key);
        if (!implicit && !spec.isHidden() && cs != null && cs.isHidden()) {
            Integer order = draft.nextOrder();
            draft.updateSettings(key, new ColumnSettings(cs.header(), cs.type(), cs.format(), order, null, cs.extra()));
            log.applied(key + " was hidden and is now visible" + (order == null ? "" : " (order " + order + ")"));
        } else if (!implicit) {
            log.warning(path, "column " + Identifiers.quote(key) + " is already selected; unchanged");
        }
        return key;
    }
}
