package dev.tablewright.sql;

import dev.tablewright.grounding.ConfigGrounder;
import dev.tablewright.grounding.GroundedConfig;
import dev.tablewright.grounding.ResultColumn;
import dev.tablewright.config.SortDirection;
import dev.tablewright.config.TableConfig;
import dev.tablewright.reference.FilterOperator;
import dev.tablewright.schema.ColumnInfo;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.schema.TableInfo;
import dev.tablewright.validation.ValidationError;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns a config into one SELECT: base table, joins, columns, filters, sort and a row limit.
 *
 * <p>Grounding comes first ({@link ConfigGrounder}): the SQL is emitted only from a {@link GroundedConfig}, whose every
 * name was found in the live catalogue and whose filter values fit their operators.
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

    /** Grounds the config ({@link ConfigGrounder}), then emits the SELECT from the grounded config. */
    public static Compilation compile(TableConfig config, SchemaCatalog catalog, int rowLimit) {
        ConfigGrounder.Grounding grounding = ConfigGrounder.ground(config, catalog);
        if (grounding.config() == null) {
            return new Compilation(null, grounding.errors(), grounding.warnings());
        }
        return new Compilation(emit(grounding.config(), Math.max(1, Math.min(MAX_ROW_LIMIT, rowLimit))), List.of(),
                grounding.warnings());
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

    private static CompiledQuery emit(GroundedConfig grounded, int rowLimit) {
        return new Emitter().emit(grounded, rowLimit);
    }

    /** Writes the SELECT of a grounded config: quoted catalogue names only, every value a bound parameter. */
    private static final class Emitter {
        private final List<BoundValue> parameters = new ArrayList<>();

        CompiledQuery emit(GroundedConfig grounded, int rowLimit) {
            StringBuilder from = new StringBuilder();
            from.append(qualified(grounded.base().table())).append(" AS ").append(quote(grounded.base().alias()));
            for (GroundedConfig.Join join : grounded.joins()) {
                List<String> on = new ArrayList<>();
                for (GroundedConfig.KeyPair pair : join.keyPairs()) {
                    on.add(quote(join.other().alias()) + "." + quote(pair.otherColumn()) + " = "
                            + quote(join.joined().alias()) + "." + quote(pair.joinedColumn()));
                }
                from.append("\n").append(join.type().name()).append(" JOIN ").append(qualified(join.joined().table()))
                        .append(" AS ").append(quote(join.joined().alias())).append(" ON ").append(String.join(" AND ", on));
            }
            List<ResultColumn> columns = grounded.columns();
            StringBuilder sql = new StringBuilder("SELECT ");
            for (int i = 0; i < columns.size(); i++) {
                ResultColumn c = columns.get(i);
                sql.append(i == 0 ? "" : ", ").append(expr(c)).append(" AS ").append(quote(c.key()));
            }
            sql.append("\nFROM ").append(from);

            // Each filter's and sort's SQL is recorded as a span, so an error PostgreSQL reports at a position in the
            // SQL (the planner's "operator does not exist", "could not identify an ordering operator") lands on its field.
            List<CompiledQuery.Span> spans = new ArrayList<>();
            String glue = "\nWHERE ";
            for (GroundedConfig.FilterOn filter : grounded.filters()) {
                String predicate = predicate(filter);
                sql.append(glue);
                spans.add(new CompiledQuery.Span(sql.length(), sql.length() + predicate.length(), filter.field()));
                sql.append(predicate);
                glue = "\n  AND ";
            }
            glue = "\nORDER BY ";
            for (GroundedConfig.SortOn sort : grounded.sorts()) {
                String order = expr(sort.column()) + (sort.direction() == SortDirection.DESC ? " DESC" : " ASC");
                sql.append(glue);
                spans.add(new CompiledQuery.Span(sql.length(), sql.length() + order.length(), sort.field()));
                sql.append(order);
                glue = ", ";
            }
            sql.append("\nLIMIT ").append(rowLimit + 1);
            return new CompiledQuery(sql.toString(), parameters, columns, rowLimit, spans);
        }

        private static String expr(ResultColumn c) {
            return quote(c.tableAlias()) + "." + quote(c.column().name());
        }

        private static String qualified(TableInfo t) {
            return quote(t.schema()) + "." + quote(t.name());
        }

        private String predicate(GroundedConfig.FilterOn f) {
            List<String> values = f.values();
            ColumnInfo column = f.column().column();
            String col = expr(f.column());
            String cast = castType(column.pgType());
            String field = f.field() + ".value";
            boolean dayBounds = isTimestamp(cast);
            return switch (f.operator()) {
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
                    yield col + (f.operator() == FilterOperator.IN ? " IN (" : " NOT IN (") + String.join(", ", ps) + ")";
                }
                case CONTAINS -> cast != null && cast.endsWith("[]")
                        ? param(values.get(0), cast.substring(0, cast.length() - 2), field, col) + " = ANY (" + col + ")"
                        : like(col, cast, "%" + escapeLike(values.get(0)) + "%", field);
                case STARTS_WITH -> like(col, cast, escapeLike(values.get(0)) + "%", field);
                case ENDS_WITH -> like(col, cast, "%" + escapeLike(values.get(0)), field);
                case IS_NULL -> col + " IS NULL";
                case IS_NOT_NULL -> col + " IS NOT NULL";
            };
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

    }
}
