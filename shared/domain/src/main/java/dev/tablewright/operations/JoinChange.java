package dev.tablewright.operations;

import dev.tablewright.grounding.CatalogLookup;
import dev.tablewright.grounding.ForeignKeys;
import dev.tablewright.config.ForeignTable;
import dev.tablewright.config.JoinType;
import dev.tablewright.config.RelationshipEnd;
import dev.tablewright.config.TableConfig;
import dev.tablewright.schema.ClosestNames;
import dev.tablewright.schema.ForeignKey;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.schema.TableInfo;
import dev.tablewright.validation.Identifiers;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code apply_join_change}: adds a foreign table (alias derived from the relationship, so the same table joined
 * twice gets {@code users_created_by} and {@code users_approved_by}; else {@code users_2}), optionally selecting some of
 * its columns; or removes a join together with its columns and the filters and sorts on them.
 */
public final class JoinChange {

    public enum Operation { ADD, REMOVE }

    private final SchemaCatalog catalog;

    public JoinChange() {
        this(null);
    }

    /** @param catalog the live schema to ground names in; null runs ungrounded (with a warning) */
    public JoinChange(SchemaCatalog catalog) {
        this.catalog = catalog;
    }

    public OperationResult add(TableConfig config, JoinSpec join) {
        return apply(config, Operation.ADD, join);
    }

    public OperationResult remove(TableConfig config, JoinSpec join) {
        return apply(config, Operation.REMOVE, join);
    }

    public OperationResult apply(TableConfig config, Operation operation, JoinSpec join) {
        return Operations.addOrRemove(config, operation, "join", join, operation == Operation.ADD ? this::add : this::remove);
    }

    // ---------------------------------------------------------------- add

    private void add(ConfigDraft d, JoinSpec j, ChangeLog log) {
        j = splitQualifiedTable(j);
        CatalogLookup grounding = CatalogLookup.reportingOutages(catalog);
        grounding.noteIfUngrounded(log.problems);
        if (!Identifiers.check(log.problems, "join.table", "joined table", j.table())) {
            return;
        }
        String schema = j.schema() == null || j.schema().isEmpty() ? d.baseSchema() : j.schema();
        if (!Identifiers.check(log.problems, "join.schema", "join schema", schema)) {
            return;
        }
        JoinType type = joinType(j, log);
        if (type == null || !aliasIsFree(d, j, log)) {
            return;
        }
        Optional<TableInfo> target = grounding.table(schema, j.table(), "join.table", log.problems);
        if (grounding.grounded() && target.isEmpty()) {
            return;
        }
        Relationship relationship = relationship(d, j, schema, grounding, log);
        if (relationship == null) {
            return;
        }
        JoinedFrom from = joinedFrom(d, relationship, log);
        if (from == null || !namesTheJoinedTable(j, relationship, log)) {
            return;
        }
        if (grounding.grounded() && !groundRelationship(from, relationship, target.get(), j, grounding, log)) {
            return;
        }
        String alias = j.alias() != null && !j.alias().isEmpty() ? j.alias() : deriveAlias(d, j.table(), relationship.fromEnd().column());
        if (alias == null) {
            log.error("join.alias", "no free alias could be derived for " + Identifiers.quote(j.table()) + "; pass an alias");
            return;
        }
        appendJoin(d, j, schema, type, alias, from, relationship, log);
        selectColumnsToAdd(d, j, schema, alias, grounding, log);
    }

    /** The two ends of the join as written (or inferred from the one foreign key), parsed. */
    private record Relationship(String from, String to, RelationshipEnd fromEnd, RelationshipEnd toEnd) {
    }

    /** Where the join starts: the base table or an existing join ({@code ref} is the join's alias). */
    private record JoinedFrom(String ref, String schema, String table) {
    }

    private static JoinType joinType(JoinSpec j, ChangeLog log) {
        if (j.joinType() == null || j.joinType().isEmpty()) {
            return JoinType.LEFT;
        }
        JoinType type = JoinType.parse(j.joinType()).orElse(null);
        if (type == null) {
            log.error("join.join_type", "join_type " + Identifiers.quote(j.joinType()) + " is not one of INNER, LEFT, RIGHT, FULL");
        }
        return type;
    }

    private static boolean aliasIsFree(ConfigDraft d, JoinSpec j, ChangeLog log) {
        if (j.alias() == null || j.alias().isEmpty()) {
            return true;
        }
        if (!Identifiers.check(log.problems, "join.alias", "join alias", j.alias())) {
            return false;
        }
        if (d.join(j.alias()) != null || j.alias().equals(d.baseTable())) {
            log.error("join.alias", "alias " + Identifiers.quote(j.alias()) + " is already used in this config; choose another");
            return false;
        }
        return true;
    }

    private Relationship relationship(ConfigDraft d, JoinSpec j, String schema, CatalogLookup grounding, ChangeLog log) {
        String from = j.relationshipFrom();
        String to = j.relationshipTo();
        boolean noFrom = from == null || from.isEmpty();
        boolean noTo = to == null || to.isEmpty();
        if (noFrom && noTo && grounding.grounded()) {
            String[] inferred = infer(d, schema, j.table(), grounding, log);
            if (inferred == null) {
                return null;
            }
            from = inferred[0];
            to = inferred[1];
        } else if (noFrom || noTo) {
            log.error(noFrom ? "join.relationship_from" : "join.relationship_to", (noFrom ? "relationship_from" : "relationship_to")
                    + " is missing; write e.g. relationship_from \"" + d.baseTable() + ".<column>\" and relationship_to \""
                    + j.table() + ".id\"");
            return null;
        }
        RelationshipEnd fromEnd = parseEnd("join.relationship_from", from, log);
        RelationshipEnd toEnd = parseEnd("join.relationship_to", to, log);
        return fromEnd == null || toEnd == null ? null : new Relationship(from, to, fromEnd, toEnd);
    }

    /** relationship_from names the base table or an existing join (a joined table's name is read as its one alias). */
    private static JoinedFrom joinedFrom(ConfigDraft d, Relationship relationship, ChangeLog log) {
        String fromRef = relationship.fromEnd().table();
        if (fromRef.equals(d.baseTable()) && d.join(fromRef) == null) {
            return new JoinedFrom(fromRef, d.baseSchema(), d.baseTable());
        }
        ForeignTable via = d.join(fromRef);
        if (via == null) {
            List<ForeignTable> byTable = d.joinsOfTable(fromRef, null);
            if (byTable.size() == 1) {
                via = byTable.get(0);
            }
        }
        if (via == null) {
            log.error("join.relationship_from", "relationship_from " + Identifiers.quote(relationship.from()) + " must name the base table "
                    + Identifiers.quote(d.baseTable()) + " or a joined alias." + ClosestNames.hint(fromRef, d.joinReferences()));
            return null;
        }
        return new JoinedFrom(via.reference(), via.schema(), via.table());
    }

    private static boolean namesTheJoinedTable(JoinSpec j, Relationship relationship, ChangeLog log) {
        String alias = j.alias() != null && !j.alias().isEmpty() ? j.alias() : null;
        String toTable = relationship.toEnd().table();
        if (!toTable.equals(j.table()) && !toTable.equals(alias)) {
            log.error("join.relationship_to", "relationship_to " + Identifiers.quote(relationship.to()) + " must name the joined table "
                    + Identifiers.quote(j.table()) + ", e.g. " + j.table() + ".id");
            return false;
        }
        return true;
    }

    /** Both columns exist; a missing foreign key between them is a warning (the join may still be meant). */
    private static boolean groundRelationship(JoinedFrom from, Relationship relationship, TableInfo target, JoinSpec j,
                                              CatalogLookup grounding, ChangeLog log) {
        Optional<TableInfo> fromInfo = grounding.table(from.schema(), from.table(), "join.relationship_from", log.problems);
        if (fromInfo.isEmpty()
                || grounding.column(fromInfo.get(), relationship.fromEnd().column(), "join.relationship_from", log.problems).isEmpty()
                || grounding.column(target, relationship.toEnd().column(), "join.relationship_to", log.problems).isEmpty()) {
            return false;
        }
        if (ForeignKeys.pairs(fromInfo.get(), relationship.fromEnd().column(), target, relationship.toEnd().column()).isEmpty()) {
            log.warning("join.relationship_to", "no foreign key links " + from.table() + "." + relationship.fromEnd().column() + " and "
                    + j.table() + "." + relationship.toEnd().column() + "; check that the join is meant");
        }
        return true;
    }

    private static void appendJoin(ConfigDraft d, JoinSpec j, String schema, JoinType type, String alias, JoinedFrom from,
                                   Relationship relationship, ChangeLog log) {
        String fromText = from.ref() + "." + relationship.fromEnd().column();
        String toText = relationship.toEnd().table() + "." + relationship.toEnd().column();
        String why = alias.equals(j.table()) || j.alias() != null ? ""
                : !d.joinsOfTable(j.table(), null).isEmpty() ? " (" + j.table() + " is already joined)"
                : " (named after " + relationship.fromEnd().column() + ")";
        d.addJoin(new ForeignTable(schema, j.table(), alias, type.name(), fromText, toText, null));
        log.applied("join " + schema + "." + j.table() + " added as " + alias + why + ": " + type.name() + " JOIN on "
                + fromText + " = " + toText);
    }

    private static void selectColumnsToAdd(ConfigDraft d, JoinSpec j, String schema, String alias, CatalogLookup grounding,
                                           ChangeLog log) {
        for (int i = 0; i < j.columnsToAdd().size(); i++) {
            ColumnSpec c = j.columnsToAdd().get(i);
            String path = "join.columns_to_add[" + i + "]";
            if (c == null) {
                log.error(path, "column is empty");
                continue;
            }
            ColumnSpec fromJoin = new ColumnSpec(c.name(), alias, schema, c.pgType(), c.alias(), c.hidden(), c.header(), c.format());
            new ColumnSelection(d, log, grounding).select(fromJoin, path);
        }
    }

    /** {@code table: "core.users"} without a schema reads as schema core, table users (models write both). */
    private static JoinSpec splitQualifiedTable(JoinSpec j) {
        String t = j.table();
        if (t != null && (j.schema() == null || j.schema().isEmpty()) && t.length() <= 200 && t.indexOf('.') > 0
                && t.indexOf('.') == t.lastIndexOf('.')) {
            int dot = t.indexOf('.');
            return new JoinSpec(t.substring(dot + 1), t.substring(0, dot), j.alias(), j.joinType(), j.relationshipFrom(),
                    j.relationshipTo(), j.columnsToAdd());
        }
        return j;
    }

    private static RelationshipEnd parseEnd(String field, String text, ChangeLog log) {
        RelationshipEnd end = RelationshipEnd.parse(text).orElse(null);
        if (end == null) {
            log.error(field, "relationship " + Identifiers.quote(text) + " is not <table-or-alias>.<column>");
            return null;
        }
        if ((end.schema() != null && !Identifiers.check(log.problems, field, "relationship schema", end.schema()))
                || !Identifiers.check(log.problems, field, "relationship table", end.table())
                || !Identifiers.check(log.problems, field, "relationship column", end.column())) {
            return null;
        }
        return end;
    }

    /** The one foreign key between the base table and the target not yet used by a join; null after an error. */
    private static String[] infer(ConfigDraft d, String schema, String table, CatalogLookup grounding, ChangeLog log) {
        Optional<TableInfo> base = grounding.table(d.baseSchema(), d.baseTable(), "data_source[0].source", log.problems);
        if (base.isEmpty()) {
            return null;
        }
        Set<String> used = new HashSet<>();
        for (ForeignTable ft : d.joinsOfTable(table, schema)) {
            used.add(ft.relationshipFrom());
        }
        // A key over several columns is named by its first pair: the query joins on every pair of the key.
        List<String[]> candidates = new ArrayList<>();
        for (ForeignKey fk : base.get().outgoing()) {
            if (!fk.fromColumns().isEmpty() && schema.equals(fk.toSchema()) && table.equals(fk.toTable())) {
                candidates.add(new String[]{d.baseTable() + "." + fk.fromColumns().get(0), table + "." + fk.toColumns().get(0)});
            }
        }
        for (ForeignKey fk : base.get().incoming()) {
            if (!fk.fromColumns().isEmpty() && schema.equals(fk.fromSchema()) && table.equals(fk.fromTable())) {
                candidates.add(new String[]{d.baseTable() + "." + fk.toColumns().get(0), table + "." + fk.fromColumns().get(0)});
            }
        }
        candidates.removeIf(c -> used.contains(c[0]));
        if (candidates.size() == 1) {
            log.applied("relationship inferred from the foreign key " + candidates.get(0)[0] + " → " + candidates.get(0)[1]);
            return candidates.get(0);
        }
        if (candidates.isEmpty()) {
            log.error("join.relationship_from", "no unused foreign key links " + d.baseTable() + " and " + table
                    + "; pass relationship_from and relationship_to");
        } else {
            List<String> options = new ArrayList<>();
            candidates.forEach(c -> options.add(c[0] + " → " + c[1]));
            log.error("join.relationship_from", "several foreign keys link " + d.baseTable() + " and " + table + " ("
                    + String.join("; ", options) + "); pass relationship_from and relationship_to");
        }
        return null;
    }

    /**
     * The alias of a new join: named after the relationship when its column says more than the table does
     * ({@code orders.created_by} → {@code users_created_by}, {@code orders.approved_by} → {@code users_approved_by}),
     * the table's own name when the column just names the table ({@code orders.customer_id} → {@code customers});
     * the other of the two if that one is taken; else {@code <table>_2}, {@code _3}, …
     */
    static String deriveAlias(ConfigDraft d, String table, String fromColumn) {
        String stem = fromColumn.endsWith("_id") && fromColumn.length() > 3 ? fromColumn.substring(0, fromColumn.length() - 3) : fromColumn;
        boolean natural = stem.equals("id") || namesTable(stem, table);
        String byRelationship = natural ? null : ResultKeys.joined(table, stem);
        for (String candidate : natural ? new String[]{table} : new String[]{byRelationship, table}) {
            if (candidate != null && isFree(d, candidate)) {
                return candidate;
            }
        }
        for (int n = 2; n < 100; n++) {
            String numbered = ResultKeys.joined(table.substring(0, Math.min(table.length(), 59)), Integer.toString(n));
            if (numbered != null && isFree(d, numbered)) {
                return numbered;
            }
        }
        return null;
    }

    /** Whether {@code table} is {@code stem} or its plural: customer → customers, category → categories, box → boxes. */
    static boolean namesTable(String stem, String table) {
        return table.equals(stem) || table.equals(stem + "s") || table.equals(stem + "es")
                || (stem.endsWith("y") && table.equals(stem.substring(0, stem.length() - 1) + "ies"));
    }

    private static boolean isFree(ConfigDraft d, String alias) {
        return !alias.equals(d.baseTable()) && d.join(alias) == null;
    }

    // ---------------------------------------------------------------- remove

    private void remove(ConfigDraft d, JoinSpec j, ChangeLog log) {
        String wanted = j.alias() != null && !j.alias().isEmpty() ? j.alias() : j.table();
        String field = j.alias() != null && !j.alias().isEmpty() ? "join.alias" : "join.table";
        if (!Identifiers.check(log.problems, field, "join", wanted)) {
            return;
        }
        ForeignTable target = d.join(wanted);
        if (target == null) {
            List<ForeignTable> byTable = d.joinsOfTable(wanted, j.schema() == null || j.schema().isEmpty() ? null : j.schema());
            if (byTable.size() == 1) {
                target = byTable.get(0);
            } else if (byTable.size() > 1) {
                List<String> refs = new ArrayList<>();
                byTable.forEach(ft -> refs.add(ft.reference()));
                log.error(field, "table " + Identifiers.quote(wanted) + " is joined " + byTable.size() + " times (as "
                        + String.join(", ", refs) + "); pass the alias of the join to remove");
                return;
            }
        }
        if (target == null) {
            log.error(field, "no join " + Identifiers.quote(wanted) + " in this config." + ClosestNames.hint(wanted, d.joinReferences()));
            return;
        }
        String ref = target.reference();
        for (ForeignTable other : d.joins()) {
            if (other != null && other != target) {
                Optional<RelationshipEnd> end = RelationshipEnd.parse(other.relationshipFrom());
                if (end.isPresent() && ref.equals(end.get().table())) {
                    log.error(field, "join " + other.reference() + " is joined through " + ref + " (relationship_from "
                            + other.relationshipFrom() + "); remove " + other.reference() + " first");
                    return;
                }
            }
        }
        d.removeJoin(target);
        log.applied("join " + ref + " removed");
        List<String> keys = d.deselectColumnsOf(ref);
        keys.forEach(key -> log.applied(key + " removed (a column of " + ref + ")"));
        d.removeFiltersAndSortsOn(new HashSet<>(keys)).forEach(log::applied);
    }
}
