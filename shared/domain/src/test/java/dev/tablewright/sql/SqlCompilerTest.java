package dev.tablewright.sql;

import dev.tablewright.codec.ConfigJson;
import dev.tablewright.config.TableConfig;
import dev.tablewright.json.Json;
import dev.tablewright.reference.FilterOperator;
import dev.tablewright.schema.ColumnInfo;
import dev.tablewright.schema.ForeignKey;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.schema.TableInfo;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.List;
import dev.tablewright.reference.VisualType;
import java.util.Map;
import java.util.LinkedHashMap;
import java.util.ArrayList;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The SQL form of every operator and the compiler's safety rules, on a catalogue held in memory. */
public class SqlCompilerTest {

    static final ForeignKey CREATED_BY = new ForeignKey("orders_created_by_fkey", "sales", "orders", List.of("created_by"),
            "core", "users", List.of("id"));
    static final TableInfo ORDERS = new TableInfo("sales", "orders", "table", List.of(
            new ColumnInfo("id", "bigint", false, true, null, false),
            new ColumnInfo("code", "character varying(8)", false, false, null, false),
            new ColumnInfo("status", "sales.order_status", false, false, null, true),
            new ColumnInfo("total", "numeric(14,2)", false, false, null, false),
            new ColumnInfo("created_at", "timestamp with time zone", false, false, null, false),
            new ColumnInfo("tags", "text[]", true, false, null, false),
            new ColumnInfo("country", "character(2)", false, false, null, false),
            new ColumnInfo("created_by", "bigint", false, false, null, false)), List.of(CREATED_BY), List.of());
    static final TableInfo USERS = new TableInfo("core", "users", "table", List.of(
            new ColumnInfo("id", "bigint", false, true, null, false),
            new ColumnInfo("first_name", "text", false, false, null, false)), List.of(), List.of(CREATED_BY));

    public static final SchemaCatalog CATALOG = new SchemaCatalog() {
        @Override
        public List<String> schemas() {
            return List.of("sales", "core");
        }

        @Override
        public List<TableInfo> tables(String schema) {
            return schema.equals("sales") ? List.of(ORDERS) : schema.equals("core") ? List.of(USERS) : List.of();
        }

        @Override
        public Optional<TableInfo> table(String schema, String table) {
            return tables(schema).stream().filter(t -> t.name().equals(table)).findFirst();
        }
    };

    /** Each column's visual type in the fixture config; a filtered column is shown as string where its type lacks the operator. */
    private static final Map<String, String> TYPES = new LinkedHashMap<>();

    static {
        TYPES.put("id", "number");
        TYPES.put("code", "string");
        TYPES.put("status", "enum");
        TYPES.put("total", "number");
        TYPES.put("created_at", "datetime");
        TYPES.put("tags", "array");
        TYPES.put("country", "string");
        TYPES.put("first_name", "string");
    }

    /** A valid config over orders (joined to its creator) with one filter; the compiler works from validated configs. */
    static SqlCompiler.Compilation compile(String filterColumn, String operator, String valueJson) {
        String filter = operator == null ? "" : "{\"column\": \"" + filterColumn + "\", \"operator\": \"" + operator + "\""
                + (valueJson == null ? "" : ", \"value\": " + valueJson) + "}";
        List<String> settings = new ArrayList<>();
        TYPES.forEach((column, type) -> {
            boolean allows = operator == null || !column.equals(filterColumn) || FilterOperator.parse(operator)
                    .map(op -> VisualType.parse(type).orElseThrow().operators().contains(op)).orElse(true);
            String shown = allows ? type : "string";
            settings.add("\"" + column + "\": {\"type\": \"" + shown + "\""
                    + (shown.equals("datetime") ? ", \"format\": \"yyyy-MM-dd HH:mm\"" : "") + "}");
        });
        TableConfig config = ConfigJson.read("""
                {"data_source": [{"schema": "sales", "source": "orders",
                  "select": {"columns": [{"name": "id"}, {"name": "code"}, {"name": "status"}, {"name": "total"},
                     {"name": "created_at"}, {"name": "tags"}, {"name": "country"}, {"name": "first_name", "table": "creator"}],
                    "foreign_tables": [{"schema": "core", "table": "users", "alias": "creator", "join_type": "LEFT",
                      "relationship_from": "orders.created_by", "relationship_to": "creator.id"}]},
                  "filters": [%s], "sort": [{"column": "total", "direction": "desc"}]}],
                 "visual_settings": {"columns": {%s}}}
                """.formatted(filter, String.join(", ", settings))).config();
        return SqlCompiler.compile(config, CATALOG, 10);
    }

    static String where(SqlCompiler.Compilation c) {
        assertTrue(c.ok(), () -> c.errors().toString());
        String sql = c.query().sql();
        return sql.substring(sql.indexOf("WHERE ") + 6, sql.indexOf("\nORDER BY"));
    }

    static List<String> params(SqlCompiler.Compilation c) {
        return c.query().parameters().stream().map(BoundValue::text).toList();
    }

    @Test
    void selectsJoinsSortsAndLimitsWithQuotedCatalogueNames() {
        SqlCompiler.Compilation c = compile(null, null, null);
        assertTrue(c.ok(), c.errors()::toString);
        assertEquals("""
                SELECT "orders"."id" AS "id", "orders"."code" AS "code", "orders"."status" AS "status", \
                "orders"."total" AS "total", "orders"."created_at" AS "created_at", "orders"."tags" AS "tags", \
                "orders"."country" AS "country", "creator"."first_name" AS "first_name"
                FROM "sales"."orders" AS "orders"
                LEFT JOIN "core"."users" AS "creator" ON "orders"."created_by" = "creator"."id"
                ORDER BY "orders"."total" DESC
                LIMIT 11""", c.query().sql());
    }

    @Test
    void everyOperatorHasItsSqlFormWithBoundValues() {
        Set<FilterOperator> covered = EnumSet.noneOf(FilterOperator.class);
        record Case(FilterOperator op, String column, String value, String where, List<String> params) {
        }
        List<Case> cases = List.of(
                new Case(FilterOperator.EQ, "status", "\"open\"", "\"orders\".\"status\" = CAST(? AS sales.order_status)", List.of("open")),
                new Case(FilterOperator.NEQ, "code", "\"A1\"", "\"orders\".\"code\" <> CAST(? AS character varying)", List.of("A1")),
                new Case(FilterOperator.GT, "total", "10.5", "\"orders\".\"total\" > CAST(? AS numeric)", List.of("10.5")),
                new Case(FilterOperator.GTE, "total", "10", "\"orders\".\"total\" >= CAST(? AS numeric)", List.of("10")),
                new Case(FilterOperator.LT, "created_at", "\"2024-05-01T10:00:00Z\"",
                        "\"orders\".\"created_at\" < CAST(? AS timestamp with time zone)", List.of("2024-05-01T10:00:00Z")),
                new Case(FilterOperator.LTE, "created_at", "\"2024-05-01\"",
                        "\"orders\".\"created_at\" < (CAST(? AS date) + 1)", List.of("2024-05-01")),
                new Case(FilterOperator.BETWEEN, "created_at", "[\"2024-05-01\", \"2024-05-31\"]",
                        "(\"orders\".\"created_at\" >= CAST(? AS timestamp with time zone) AND \"orders\".\"created_at\" < (CAST(? AS date) + 1))",
                        List.of("2024-05-01", "2024-05-31")),
                new Case(FilterOperator.IN, "status", "[\"open\", \"approved\"]",
                        "\"orders\".\"status\" IN (CAST(? AS sales.order_status), CAST(? AS sales.order_status))", List.of("open", "approved")),
                new Case(FilterOperator.NOT_IN, "country", "[\"DE\"]", "\"orders\".\"country\" NOT IN (CAST(? AS bpchar))", List.of("DE")),
                new Case(FilterOperator.CONTAINS, "code", "\"50%_off!\"", "\"orders\".\"code\" ILIKE ? ESCAPE '!'", List.of("%50!%!_off!!%")),
                new Case(FilterOperator.STARTS_WITH, "first_name", "\"An\"", "\"creator\".\"first_name\" ILIKE ? ESCAPE '!'", List.of("An%")),
                new Case(FilterOperator.ENDS_WITH, "total", "\"00\"", "CAST(\"orders\".\"total\" AS text) ILIKE ? ESCAPE '!'", List.of("%00")),
                new Case(FilterOperator.IS_NULL, "tags", null, "\"orders\".\"tags\" IS NULL", List.of()),
                new Case(FilterOperator.IS_NOT_NULL, "tags", null, "\"orders\".\"tags\" IS NOT NULL", List.of()));
        for (Case k : cases) {
            SqlCompiler.Compilation c = compile(k.column(), k.op().wireName(), k.value());
            assertEquals(k.where(), where(c), k.op().toString());
            assertEquals(k.params(), params(c), k.op().toString());
            covered.add(k.op());
        }
        SqlCompiler.Compilation arrayContains = compile("tags", "contains", "\"urgent\"");
        assertEquals("CAST(? AS text) = ANY (\"orders\".\"tags\")", where(arrayContains));
        assertEquals(EnumSet.allOf(FilterOperator.class), covered, "every operator of the type reference");
    }

    @Test
    void valuesNeverBecomeSqlText() {
        String hostile = "'; DROP TABLE sales.orders; --";
        SqlCompiler.Compilation c = compile("code", "eq", Json.write(hostile));
        assertFalse(c.query().sql().contains("DROP"));
        assertEquals(List.of(hostile), params(c));
    }

    @Test
    void valueShapesAreChecked() {
        assertEquals("data_source[0].filters[0].value", compile("total", "between", "[1]").errors().get(0).field());
        assertEquals("data_source[0].filters[0].value", compile("total", "in", "[]").errors().get(0).field());
        assertEquals("data_source[0].filters[0].value", compile("total", "eq", "null").errors().get(0).field());
        assertEquals("data_source[0].filters[0].value[0]", compile("total", "in", "[{\"a\": 1}]").errors().get(0).field());
    }

    @Test
    void castTypesDropModifiersAndRefuseOddText() {
        assertEquals("character varying", SqlCompiler.castType("character varying(8)"));
        assertEquals("numeric", SqlCompiler.castType("numeric(10,2)"));
        assertEquals("bpchar", SqlCompiler.castType("character(2)"));
        assertEquals("timestamp with time zone", SqlCompiler.castType("timestamp(3) with time zone"));
        assertEquals("integer[]", SqlCompiler.castType("integer[]"));
        assertEquals("\"Odd Schema\".\"my type\"", SqlCompiler.castType("\"Odd Schema\".\"my type\""));
        assertEquals(null, SqlCompiler.castType("int; drop table x"));
        assertEquals(null, SqlCompiler.castType("int--x"));
    }
}
