package dev.tablewright.sql;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.config.DataSource;
import dev.tablewright.config.Filter;
import dev.tablewright.config.ForeignTable;
import dev.tablewright.config.JoinType;
import dev.tablewright.config.RelationshipEnd;
import dev.tablewright.config.SelectColumn;
import dev.tablewright.config.Sort;
import dev.tablewright.config.SortDirection;
import dev.tablewright.config.TableConfig;
import dev.tablewright.reference.FilterOperator;
import dev.tablewright.schema.ClosestNames;
import dev.tablewright.schema.ColumnInfo;
import dev.tablewright.schema.ForeignKey;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.schema.TableInfo;
import dev.tablewright.validation.Identifiers;
import dev.tablewright.validation.ValidationError;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Grounds a config in the live catalogue: every schema, table, column and relationship is looked up, and an unknown
 * name is an error on its field naming the closest real ones. A join must follow a real foreign key (in either
 * direction); when the key has several columns the join uses all of them. Filters and sorts must be on selected
 * columns, with a known operator or direction and values of the operator's shape. The result is a
 * {@link GroundedConfig}, which is all {@link SqlCompiler} emits SQL from.
 */
public final class ConfigGrounder {

    /** The grounded config, or the errors (fields point into the config) that prevented it; warnings either way. */
    public record Grounding(GroundedConfig config, List<ValidationError> errors, List<ValidationError> warnings) {
        public Grounding {
            errors = List.copyOf(errors);
            warnings = List.copyOf(warnings);
        }
    }

    private final SchemaCatalog catalog;
    private final List<ValidationError> errors = new ArrayList<>();
    private final List<ValidationError> warnings = new ArrayList<>();
    /** SQL alias → source, base table first. */
    private final Map<String, GroundedConfig.Source> sources = new LinkedHashMap<>();
    private final List<GroundedConfig.Join> joins = new ArrayList<>();

    private ConfigGrounder(SchemaCatalog catalog) {
        this.catalog = catalog;
    }

    public static Grounding ground(TableConfig config, SchemaCatalog catalog) {
        return new ConfigGrounder(catalog).run(config);
    }

    private Grounding run(TableConfig config) {
        if (config == null || config.dataSource() == null || config.dataSource().isEmpty()) {
            errors.add(new ValidationError("data_source", "a base table (data_source[0].schema and .source) is required"));
            return done(null);
        }
        if (config.dataSource().size() > 1) {
            warnings.add(new ValidationError("data_source", "only data_source[0] is previewed; "
                    + (config.dataSource().size() - 1) + " further data source(s) ignored"));
        }
        DataSource ds = config.dataSource().get(0);
        String p = "data_source[0]";
        Optional<TableInfo> base = table(ds.schema(), ds.source(), p + ".schema", p + ".source");
        if (base.isEmpty()) {
            return done(null);
        }
        GroundedConfig.Source baseSource = new GroundedConfig.Source(ds.source(), base.get());
        sources.put(ds.source(), baseSource);
        List<ForeignTable> configJoins = ds.select() == null || ds.select().foreignTables() == null
                ? List.of() : ds.select().foreignTables();
        for (int i = 0; i < configJoins.size(); i++) {
            join(configJoins.get(i), p + ".select.foreign_tables[" + i + "]");
        }

        List<ResultColumn> columns = new ArrayList<>();
        Map<String, ResultColumn> byKey = new LinkedHashMap<>();
        List<SelectColumn> selected = ds.select() == null || ds.select().columns() == null
                ? List.of() : ds.select().columns();
        if (selected.isEmpty()) {
            errors.add(new ValidationError(p + ".select.columns", "select at least one column"));
        }
        for (int i = 0; i < selected.size(); i++) {
            column(selected.get(i), p + ".select.columns[" + i + "]").ifPresent(rc -> {
                if (byKey.putIfAbsent(rc.key(), rc) == null) {
                    columns.add(rc);
                }
            });
        }
        if (!errors.isEmpty()) {
            return done(null);
        }

        List<GroundedConfig.FilterOn> filters = new ArrayList<>();
        List<Filter> configFilters = ds.filters() == null ? List.of() : ds.filters();
        for (int i = 0; i < configFilters.size(); i++) {
            filter(configFilters.get(i), byKey, p + ".filters[" + i + "]").ifPresent(filters::add);
        }
        List<GroundedConfig.SortOn> sorts = new ArrayList<>();
        List<Sort> configSorts = ds.sort() == null ? List.of() : ds.sort();
        for (int i = 0; i < configSorts.size(); i++) {
            sort(configSorts.get(i), byKey, p + ".sort[" + i + "]").ifPresent(sorts::add);
        }
        if (!errors.isEmpty()) {
            return done(null);
        }
        return done(new GroundedConfig(baseSource, joins, columns, filters, sorts));
    }

    private Grounding done(GroundedConfig grounded) {
        return new Grounding(errors.isEmpty() ? grounded : null, errors, warnings);
    }

    private Optional<TableInfo> table(String schema, String table, String schemaField, String tableField) {
        if (!plain(schemaField, "schema", schema) | !plain(tableField, "table", table)) {
            return Optional.empty();
        }
        List<String> schemas = catalog.schemas();
        if (!schemas.contains(schema)) {
            errors.add(new ValidationError(schemaField, ClosestNames.missingSchema(schema, schemas)));
            return Optional.empty();
        }
        Optional<TableInfo> found = catalog.table(schema, table);
        if (found.isEmpty()) {
            errors.add(new ValidationError(tableField, ClosestNames.missingTable(catalog, schema, table)));
        }
        return found;
    }

    private Optional<ColumnInfo> columnOf(TableInfo table, String column, String field) {
        if (!plain(field, "column name", column)) {
            return Optional.empty();
        }
        Optional<ColumnInfo> found = table.column(column);
        if (found.isEmpty()) {
            errors.add(new ValidationError(field, ClosestNames.missingColumn(table, column)));
        }
        return found;
    }

    private boolean plain(String field, String what, String name) {
        String problem = Identifiers.problem(what, name);
        if (problem != null) {
            errors.add(new ValidationError(field, problem));
            return false;
        }
        return true;
    }

    /** The source a config names ({@code table} of a column, table part of a relationship end). */
    private Optional<GroundedConfig.Source> source(String name, Map<String, GroundedConfig.Source> among) {
        if (name == null) {
            return Optional.empty();
        }
        GroundedConfig.Source byAlias = among.get(name);
        if (byAlias != null) {
            return Optional.of(byAlias);
        }
        List<GroundedConfig.Source> byTable = among.values().stream().filter(s -> s.table().name().equals(name)).toList();
        return byTable.size() == 1 ? Optional.of(byTable.get(0)) : Optional.empty();
    }

    private void join(ForeignTable j, String p) {
        Optional<TableInfo> table = table(j.schema(), j.table(), p + ".schema", p + ".table");
        String alias = j.reference();
        boolean aliasOk = plain(p + (j.alias() == null || j.alias().isEmpty() ? ".table" : ".alias"), "alias", alias);
        Optional<JoinType> type = JoinType.parse(j.joinType() == null ? "LEFT" : j.joinType());
        if (type.isEmpty()) {
            errors.add(new ValidationError(p + ".join_type", "join type " + Identifiers.quote(j.joinType())
                    + " is not one of INNER, LEFT, RIGHT, FULL"));
        }
        if (table.isEmpty() || !aliasOk || type.isEmpty()) {
            return;
        }
        if (sources.containsKey(alias)) {
            errors.add(new ValidationError(p + ".alias", "the name " + Identifiers.quote(alias)
                    + " is already used by the base table or another join: give this join a unique alias"));
            return;
        }
        Optional<RelationshipEnd> fromEnd = RelationshipEnd.parse(j.relationshipFrom());
        Optional<RelationshipEnd> toEnd = RelationshipEnd.parse(j.relationshipTo());
        if (fromEnd.isEmpty() || toEnd.isEmpty()) {
            errors.add(new ValidationError(p + (fromEnd.isEmpty() ? ".relationship_from" : ".relationship_to"),
                    "a relationship end is written <table-or-alias>.<column>, e.g. orders.created_by"));
            return;
        }
        GroundedConfig.Source joined = new GroundedConfig.Source(alias, table.get());
        RelationshipEnd other;
        RelationshipEnd mine;
        String otherField;
        String mineField;
        if (namesJoin(toEnd.get(), j) && source(fromEnd.get().table(), sources).isPresent()) {
            other = fromEnd.get();
            mine = toEnd.get();
            otherField = p + ".relationship_from";
            mineField = p + ".relationship_to";
        } else if (namesJoin(fromEnd.get(), j) && source(toEnd.get().table(), sources).isPresent()) {
            other = toEnd.get();
            mine = fromEnd.get();
            otherField = p + ".relationship_to";
            mineField = p + ".relationship_from";
        } else {
            errors.add(new ValidationError(p + ".relationship_from", "the relationship must link "
                    + Identifiers.quote(alias) + " to the base table or an earlier join; known: "
                    + String.join(", ", sources.keySet())));
            return;
        }
        GroundedConfig.Source otherSource = source(other.table(), sources).orElseThrow();
        Optional<ColumnInfo> otherColumn = columnOf(otherSource.table(), other.column(), otherField);
        Optional<ColumnInfo> myColumn = columnOf(joined.table(), mine.column(), mineField);
        if (otherColumn.isEmpty() || myColumn.isEmpty()) {
            return;
        }
        Optional<List<GroundedConfig.KeyPair>> pairs = foreignKeyPairs(otherSource.table(), other.column(), joined.table(), mine.column());
        if (pairs.isEmpty()) {
            errors.add(new ValidationError(p + ".relationship_from", "no foreign key links "
                    + otherSource.table().qualifiedName() + "." + other.column() + " and "
                    + joined.table().qualifiedName() + "." + mine.column() + ". "
                    + relationshipsBetween(otherSource.table(), joined.table())));
            return;
        }
        if (pairs.get().size() > 1) {
            warnings.add(new ValidationError(p, "the foreign key has " + pairs.get().size()
                    + " columns: the join uses all of them"));
        }
        sources.put(alias, joined);
        joins.add(new GroundedConfig.Join(type.get(), joined, otherSource, pairs.get()));
    }

    private static boolean namesJoin(RelationshipEnd end, ForeignTable j) {
        return end.table().equals(j.reference()) || end.table().equals(j.table());
    }

    /**
     * The column pairs (other table's column, joined table's column) of the foreign key between the two tables
     * that contains the given pair, in either direction; empty if none does.
     */
    private static Optional<List<GroundedConfig.KeyPair>> foreignKeyPairs(TableInfo other, String otherColumn, TableInfo joined,
                                                            String joinedColumn) {
        for (ForeignKey fk : other.outgoing()) {
            if (fk.toSchema().equals(joined.schema()) && fk.toTable().equals(joined.name())) {
                int i = fk.fromColumns().indexOf(otherColumn);
                if (i >= 0 && fk.toColumns().get(i).equals(joinedColumn)) {
                    List<GroundedConfig.KeyPair> pairs = new ArrayList<>();
                    for (int k = 0; k < fk.fromColumns().size(); k++) {
                        pairs.add(new GroundedConfig.KeyPair(fk.fromColumns().get(k), fk.toColumns().get(k)));
                    }
                    return Optional.of(pairs);
                }
            }
        }
        for (ForeignKey fk : other.incoming()) {
            if (fk.fromSchema().equals(joined.schema()) && fk.fromTable().equals(joined.name())) {
                int i = fk.toColumns().indexOf(otherColumn);
                if (i >= 0 && fk.fromColumns().get(i).equals(joinedColumn)) {
                    List<GroundedConfig.KeyPair> pairs = new ArrayList<>();
                    for (int k = 0; k < fk.toColumns().size(); k++) {
                        pairs.add(new GroundedConfig.KeyPair(fk.toColumns().get(k), fk.fromColumns().get(k)));
                    }
                    return Optional.of(pairs);
                }
            }
        }
        return Optional.empty();
    }

    private static String relationshipsBetween(TableInfo a, TableInfo b) {
        List<String> between = new ArrayList<>();
        for (ForeignKey fk : a.outgoing()) {
            if (fk.toSchema().equals(b.schema()) && fk.toTable().equals(b.name())) {
                between.add(a.name() + "." + String.join("+", fk.fromColumns()) + " -> " + b.name() + "." + String.join("+", fk.toColumns()));
            }
        }
        for (ForeignKey fk : a.incoming()) {
            if (fk.fromSchema().equals(b.schema()) && fk.fromTable().equals(b.name())) {
                between.add(b.name() + "." + String.join("+", fk.fromColumns()) + " -> " + a.name() + "." + String.join("+", fk.toColumns()));
            }
        }
        if (!between.isEmpty()) {
            return "Relationships between them: " + String.join("; ", between) + ".";
        }
        List<String> linked = new ArrayList<>();
        a.outgoing().forEach(fk -> linked.add(fk.toSchema() + "." + fk.toTable()));
        a.incoming().forEach(fk -> linked.add(fk.fromSchema() + "." + fk.fromTable()));
        return linked.isEmpty() ? a.qualifiedName() + " has no foreign keys."
                : a.qualifiedName() + " is linked to: " + String.join(", ", linked.stream().distinct().toList()) + ".";
    }

    private Optional<ResultColumn> column(SelectColumn c, String p) {
        GroundedConfig.Source source;
        if (c.table() == null || c.table().isEmpty()) {
            source = sources.values().iterator().next();
        } else {
            Optional<GroundedConfig.Source> named = source(c.table(), sources);
            if (named.isEmpty()) {
                List<String> known = new ArrayList<>(sources.keySet());
                errors.add(new ValidationError(p + ".table", "no joined table is called "
                        + Identifiers.quote(c.table()) + "." + ClosestNames.hint(c.table(), known)));
                return Optional.empty();
            }
            source = named.get();
        }
        Optional<ColumnInfo> column = columnOf(source.table(), c.name(), p + ".name");
        if (column.isEmpty()) {
            return Optional.empty();
        }
        if (c.alias() != null && !c.alias().isEmpty() && !plain(p + ".alias", "alias", c.alias())) {
            return Optional.empty();
        }
        return Optional.of(new ResultColumn(c.resultKey(), source.alias(), column.get()));
    }

    private Optional<ResultColumn> resultColumn(String key, Map<String, ResultColumn> byKey, String field) {
        ResultColumn rc = key == null ? null : byKey.get(key);
        if (rc == null) {
            errors.add(new ValidationError(field, "column " + Identifiers.quote(key)
                    + " is not selected (filter and sort on selected columns; hidden ones count)."
                    + ClosestNames.hint(key, byKey.keySet())));
        }
        return Optional.ofNullable(rc);
    }

    private Optional<GroundedConfig.SortOn> sort(Sort s, Map<String, ResultColumn> byKey, String p) {
        Optional<ResultColumn> rc = resultColumn(s.column(), byKey, p + ".column");
        Optional<SortDirection> dir = SortDirection.parse(s.direction() == null ? "asc" : s.direction());
        if (dir.isEmpty()) {
            errors.add(new ValidationError(p + ".direction", "direction " + Identifiers.quote(s.direction())
                    + " is not asc or desc"));
        }
        if (rc.isEmpty() || dir.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new GroundedConfig.SortOn(p, rc.get(), dir.get()));
    }

    private Optional<GroundedConfig.FilterOn> filter(Filter f, Map<String, ResultColumn> byKey, String p) {
        Optional<ResultColumn> rc = resultColumn(f.column(), byKey, p + ".column");
        Optional<FilterOperator> op = FilterOperator.parse(f.operator());
        if (op.isEmpty()) {
            List<String> names = java.util.Arrays.stream(FilterOperator.values()).map(FilterOperator::wireName).toList();
            errors.add(new ValidationError(p + ".operator", "operator " + Identifiers.quote(f.operator())
                    + " is unknown." + ClosestNames.hint(f.operator(), names)));
        }
        if (rc.isEmpty() || op.isEmpty()) {
            return Optional.empty();
        }
        List<String> values = values(f.value(), op.get().valueShape(), p + ".value");
        return values == null ? Optional.empty() : Optional.of(new GroundedConfig.FilterOn(p, rc.get(), op.get(), values));
    }

    /** The filter's values as text, checked against the operator's value shape; null (with an error) if wrong. */
    private List<String> values(JsonNode value, FilterOperator.ValueShape shape, String field) {
        switch (shape) {
            case NONE -> {
                return List.of();
            }
            case SINGLE -> {
                String v = scalar(value, field);
                return v == null ? null : List.of(v);
            }
            default -> {
                if (value == null || !value.isArray() || value.isEmpty()
                        || (shape == FilterOperator.ValueShape.PAIR && value.size() != 2)) {
                    errors.add(new ValidationError(field, shape == FilterOperator.ValueShape.PAIR
                            ? "this operator takes two values: [low, high]" : "this operator takes a non-empty array of values"));
                    return null;
                }
                List<String> out = new ArrayList<>();
                for (int i = 0; i < value.size(); i++) {
                    String v = scalar(value.get(i), field + "[" + i + "]");
                    if (v == null) {
                        return null;
                    }
                    out.add(v);
                }
                return out;
            }
        }
    }

    private String scalar(JsonNode v, String field) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            errors.add(new ValidationError(field, "a value is required for this operator"));
            return null;
        }
        if (v.isTextual()) {
            return v.textValue();
        }
        if (v.isIntegralNumber()) {
            return v.bigIntegerValue().toString();
        }
        if (v.isNumber()) {
            return v.decimalValue().toPlainString();
        }
        if (v.isBoolean()) {
            return Boolean.toString(v.booleanValue());
        }
        errors.add(new ValidationError(field, "a value must be a string, number or boolean"));
        return null;
    }
}
