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
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns a config into one SELECT: base table, joins, columns, filters, sort and a row limit.
 *
 * <p>Grounding comes first: every schema, table, column and relationship is looked up in the live
 * catalogue, and an unknown name is an error on its field naming the closest real ones. A join must follow a real
 * foreign key (in either direction); when the key has several columns the join uses all of them.
 *
 * <p>Safety: the SQL holds only names that exist in the catalogue (and are plain identifiers), always quoted, and
 * type names from the catalogue's {@code format_type}; every filter value is a {@code ?} parameter, sent as text and
 * cast by PostgreSQL to the column's type (so an enum label or a date is checked by PostgreSQL, never spliced).
 */
public final class SqlCompiler {

    public static final int MAX_ROW_LIMIT = 1000;

    /** The compiled query, or the errors (fields point into the config) that prevented it; warnings either way. */
    public record Compilation(CompiledQuery query, List<ValidationError> errors, List<ValidationError> warnings) {
        public Compilation {
            errors = List.copyOf(errors);
            warnings = List.copyOf(warnings);
        }

        public boolean ok() {
            return errors.isEmpty() && query != null;
        }
    }

    private static final Pattern SAFE_TYPE = Pattern.compile("[A-Za-z_\"][A-Za-z0-9_ .\"$]*(\\[])?");
    private static final Pattern DATE_ONLY = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    private static final Set<String> TEXT_TYPES = Set.of("text", "character varying", "bpchar", "citext", "name");
    private static final char LIKE_ESCAPE = '!';

    private SqlCompiler() {
    }

    public static Compilation compile(TableConfig config, SchemaCatalog catalog, int rowLimit) {
        return new Run(catalog).compile(config, Math.max(1, Math.min(MAX_ROW_LIMIT, rowLimit)));
    }

    /** Quotes an identifier for PostgreSQL: wraps in double quotes, doubling any inside. */
    public static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    /** The type a text parameter is cast to for comparison with a column of {@code pgType}; null to compare as text. */
    static String castType(String pgType) {
        if (pgType == null) {
            return null;
        }
        // Type modifiers would change the value (varchar(8) truncates, numeric(10,2) rounds): compare on the base type.
        String t = pgType.replaceAll("\\([^)]*\\)", "").replaceAll("\\s+", " ").trim();
        boolean array = t.endsWith("[]");
        String base = array ? t.substring(0, t.length() - 2).trim() : t;
        base = switch (base) {
            case "character" -> "bpchar";
            case "bit" -> "varbit";
            default -> base;
        };
        String out = array ? base + "[]" : base;
        return SAFE_TYPE.matcher(out).matches() && !out.contains("--") ? out : null;
    }

    /** Escapes LIKE's wildcards so the user's text matches literally ({@code !} is the escape character). */
    static String escapeLike(String text) {
        StringBuilder out = new StringBuilder(text.length() + 8);
        for (char c : text.toCharArray()) {
            if (c == '%' || c == '_' || c == LIKE_ESCAPE) {
                out.append(LIKE_ESCAPE);
            }
            out.append(c);
        }
        return out.toString();
    }

    private record Source(String alias, TableInfo table) {
    }

    private static final class Run {
        private final SchemaCatalog catalog;
        private final List<ValidationError> errors = new ArrayList<>();
        private final List<ValidationError> warnings = new ArrayList<>();
        /** SQL alias → source, base table first. */
        private final Map<String, Source> sources = new LinkedHashMap<>();
        private final List<BoundValue> parameters = new ArrayList<>();

        Run(SchemaCatalog catalog) {
            this.catalog = catalog;
        }

        Compilation compile(TableConfig config, int rowLimit) {
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
            sources.put(ds.source(), new Source(ds.source(), base.get()));

            StringBuilder from = new StringBuilder();
            from.append(qualified(base.get())).append(" AS ").append(quote(ds.source()));
            List<ForeignTable> joins = ds.select() == null || ds.select().foreignTables() == null
                    ? List.of() : ds.select().foreignTables();
            for (int i = 0; i < joins.size(); i++) {
                join(joins.get(i), p + ".select.foreign_tables[" + i + "]", from);
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

            StringBuilder sql = new StringBuilder("SELECT ");
            for (int i = 0; i < columns.size(); i++) {
                ResultColumn c = columns.get(i);
                sql.append(i == 0 ? "" : ", ").append(expr(c)).append(" AS ").append(quote(c.key()));
            }
            sql.append("\nFROM ").append(from);

            // Each filter's and sort's SQL is recorded as a span, so an error PostgreSQL reports at a position in the
            // SQL (the planner's "operator does not exist", "could not identify an ordering operator") lands on its field.
            List<CompiledQuery.Span> spans = new ArrayList<>();
            List<Filter> filters = ds.filters() == null ? List.of() : ds.filters();
            String glue = "\nWHERE ";
            for (int i = 0; i < filters.size(); i++) {
                String field = p + ".filters[" + i + "]";
                Optional<String> predicate = predicate(filters.get(i), byKey, field);
                if (predicate.isPresent()) {
                    sql.append(glue);
                    spans.add(new CompiledQuery.Span(sql.length(), sql.length() + predicate.get().length(), field));
                    sql.append(predicate.get());
                    glue = "\n  AND ";
                }
            }
            List<Sort> sorts = ds.sort() == null ? List.of() : ds.sort();
            glue = "\nORDER BY ";
            for (int i = 0; i < sorts.size(); i++) {
                String field = p + ".sort[" + i + "]";
                Optional<String> order = orderBy(sorts.get(i), byKey, field);
                if (order.isPresent()) {
                    sql.append(glue);
                    spans.add(new CompiledQuery.Span(sql.length(), sql.length() + order.get().length(), field));
                    sql.append(order.get());
                    glue = ", ";
                }
            }
            sql.append("\nLIMIT ").append(rowLimit + 1);
            if (!errors.isEmpty()) {
                return done(null);
            }
            return done(new CompiledQuery(sql.toString(), parameters, columns, rowLimit, spans));
        }

        private Compilation done(CompiledQuery query) {
            return new Compilation(errors.isEmpty() ? query : null, errors, warnings);
        }

        // ---------------------------------------------------------------- grounding

        private Optional<TableInfo> table(String schema, String table, String schemaField, String tableField) {
            if (!plain(schemaField, "schema", schema) | !plain(tableField, "table", table)) {
                return Optional.empty();
            }
            List<String> schemas = catalog.schemas();
            if (!schemas.contains(schema)) {
                errors.add(new ValidationError(schemaField, "schema " + Identifiers.quote(schema)
                        + " does not exist or is not visible." + ClosestNames.hint(schema, schemas)));
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
                List<String> names = table.columns().stream().map(ColumnInfo::name).toList();
                errors.add(new ValidationError(field, "column " + Identifiers.quote(column) + " does not exist in "
                        + table.qualifiedName() + "." + ClosestNames.hint(column, names)));
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
        private Optional<Source> source(String name, Map<String, Source> among) {
            if (name == null) {
                return Optional.empty();
            }
            Source byAlias = among.get(name);
            if (byAlias != null) {
                return Optional.of(byAlias);
            }
            List<Source> byTable = among.values().stream().filter(s -> s.table().name().equals(name)).toList();
            return byTable.size() == 1 ? Optional.of(byTable.get(0)) : Optional.empty();
        }

        private void join(ForeignTable j, String p, StringBuilder from) {
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
            Source joined = new Source(alias, table.get());
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
            Source otherSource = source(other.table(), sources).orElseThrow();
            Optional<ColumnInfo> otherColumn = columnOf(otherSource.table(), other.column(), otherField);
            Optional<ColumnInfo> myColumn = columnOf(joined.table(), mine.column(), mineField);
            if (otherColumn.isEmpty() || myColumn.isEmpty()) {
                return;
            }
            Optional<List<String[]>> pairs = foreignKeyPairs(otherSource.table(), other.column(), joined.table(), mine.column());
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
            List<String> on = new ArrayList<>();
            for (String[] pair : pairs.get()) {
                on.add(quote(otherSource.alias()) + "." + quote(pair[0]) + " = " + quote(alias) + "." + quote(pair[1]));
            }
            from.append("\n").append(type.get().name()).append(" JOIN ").append(qualified(joined.table()))
                    .append(" AS ").append(quote(alias)).append(" ON ").append(String.join(" AND ", on));
        }

        private static boolean namesJoin(RelationshipEnd end, ForeignTable j) {
            return end.table().equals(j.reference()) || end.table().equals(j.table());
        }

        /**
         * The column pairs (other table's column, joined table's column) of the foreign key between the two tables
         * that contains the given pair, in either direction; empty if none does.
         */
        private static Optional<List<String[]>> foreignKeyPairs(TableInfo other, String otherColumn, TableInfo joined,
                                                                String joinedColumn) {
            for (ForeignKey fk : other.outgoing()) {
                if (fk.toSchema().equals(joined.schema()) && fk.toTable().equals(joined.name())) {
                    int i = fk.fromColumns().indexOf(otherColumn);
                    if (i >= 0 && fk.toColumns().get(i).equals(joinedColumn)) {
                        List<String[]> pairs = new ArrayList<>();
                        for (int k = 0; k < fk.fromColumns().size(); k++) {
                            pairs.add(new String[]{fk.fromColumns().get(k), fk.toColumns().get(k)});
                        }
                        return Optional.of(pairs);
                    }
                }
            }
            for (ForeignKey fk : other.incoming()) {
                if (fk.fromSchema().equals(joined.schema()) && fk.fromTable().equals(joined.name())) {
                    int i = fk.toColumns().indexOf(otherColumn);
                    if (i >= 0 && fk.fromColumns().get(i).equals(joinedColumn)) {
                        List<String[]> pairs = new ArrayList<>();
                        for (int k = 0; k < fk.toColumns().size(); k++) {
                            pairs.add(new String[]{fk.toColumns().get(k), fk.fromColumns().get(k)});
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
            Source source;
            if (c.table() == null || c.table().isEmpty()) {
                source = sources.values().iterator().next();
            } else {
                Optional<Source> named = source(c.table(), sources);
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

        private static String expr(ResultColumn c) {
            return quote(c.tableAlias()) + "." + quote(c.column().name());
        }

        private static String qualified(TableInfo t) {
            return quote(t.schema()) + "." + quote(t.name());
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

        // ---------------------------------------------------------------- filters and sort

        private Optional<String> orderBy(Sort s, Map<String, ResultColumn> byKey, String p) {
            Optional<ResultColumn> rc = resultColumn(s.column(), byKey, p + ".column");
            Optional<SortDirection> dir = SortDirection.parse(s.direction() == null ? "asc" : s.direction());
            if (dir.isEmpty()) {
                errors.add(new ValidationError(p + ".direction", "direction " + Identifiers.quote(s.direction())
                        + " is not asc or desc"));
            }
            if (rc.isEmpty() || dir.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(expr(rc.get()) + (dir.get() == SortDirection.DESC ? " DESC" : " ASC"));
        }

        private Optional<String> predicate(Filter f, Map<String, ResultColumn> byKey, String p) {
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
            if (values == null) {
                return Optional.empty();
            }
            ColumnInfo column = rc.get().column();
            String col = expr(rc.get());
            String cast = castType(column.pgType());
            String field = p + ".value";
            boolean dayBounds = isTimestamp(cast);
            return Optional.of(switch (op.get()) {
                case EQ -> col + " = " + param(values.get(0), cast, field, col);
                case NEQ -> col + " <> " + param(values.get(0), cast, field, col);
                case GT -> dayBounds && isDate(values.get(0))
                        ? col + " >= " + dayAfter(values.get(0), field)
                        : col + " > " + param(values.get(0), cast, field, col);
                case GTE -> col + " >= " + param(values.get(0), cast, field, col);
                case LT -> col + " < " + param(values.get(0), cast, field, col);
                case LTE -> dayBounds && isDate(values.get(0))
                        ? col + " < " + dayAfter(values.get(0), field)
                        : col + " <= " + param(values.get(0), cast, field, col);
                case BETWEEN -> dayBounds && isDate(values.get(1))
                        // a date as the upper bound of a timestamp range means the whole day
                        ? "(" + col + " >= " + param(values.get(0), cast, field + "[0]", col) + " AND " + col + " < "
                          + dayAfter(values.get(1), field + "[1]") + ")"
                        : col + " BETWEEN " + param(values.get(0), cast, field + "[0]", col) + " AND "
                          + param(values.get(1), cast, field + "[1]", col);
                case IN, NOT_IN -> {
                    List<String> ps = new ArrayList<>();
                    for (int i = 0; i < values.size(); i++) {
                        ps.add(param(values.get(i), cast, field + "[" + i + "]", col));
                    }
                    yield col + (op.get() == FilterOperator.IN ? " IN (" : " NOT IN (") + String.join(", ", ps) + ")";
                }
                case CONTAINS -> cast != null && cast.endsWith("[]")
                        ? param(values.get(0), cast.substring(0, cast.length() - 2), field, col) + " = ANY (" + col + ")"
                        : like(col, cast, "%" + escapeLike(values.get(0)) + "%", field);
                case STARTS_WITH -> like(col, cast, escapeLike(values.get(0)) + "%", field);
                case ENDS_WITH -> like(col, cast, "%" + escapeLike(values.get(0)), field);
                case IS_NULL -> col + " IS NULL";
                case IS_NOT_NULL -> col + " IS NOT NULL";
            });
        }

        private String like(String col, String cast, String pattern, String field) {
            parameters.add(new BoundValue(pattern, null, field));
            String text = cast != null && TEXT_TYPES.contains(cast) ? col : "CAST(" + col + " AS text)";
            return text + " ILIKE ? ESCAPE '" + LIKE_ESCAPE + "'";
        }

        /** A bound value cast to the column's type; when the type is not usable, both sides compare as text. */
        private String param(String value, String cast, String field, String col) {
            parameters.add(new BoundValue(value, cast, field));
            return cast == null ? "CAST(? AS text)" : "CAST(? AS " + cast + ")";
        }

        private String dayAfter(String date, String field) {
            parameters.add(new BoundValue(date, "date", field));
            return "(CAST(? AS date) + 1)";
        }

        private static boolean isTimestamp(String cast) {
            return cast != null && cast.startsWith("timestamp");
        }

        private static boolean isDate(String value) {
            return DATE_ONLY.matcher(value).matches();
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
}
