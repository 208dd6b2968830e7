package dev.tablewright.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.config.BuilderStateMapping;
import dev.tablewright.codec.ConfigJson;
import dev.tablewright.config.TableConfig;
import dev.tablewright.fixtures.FixtureCatalog;
import dev.tablewright.fixtures.Fixtures;
import dev.tablewright.json.Json;
import dev.tablewright.schema.SchemaCatalog;
import dev.tablewright.toolcontract.Tool;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.tools.ApplyColumnChangeTool;
import dev.tablewright.tools.ApplyFilterChangeTool;
import dev.tablewright.tools.ApplyJoinChangeTool;
import dev.tablewright.tools.ApplySortChangeTool;
import dev.tablewright.validation.ConfigValidator;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Random sequences of operations, through the tools' JSON interface, on random valid configs (grounded or not):
 * every answer is either valid with a config that passes ConfigValidator, or invalid with errors and no config.
 * Never an exception, never an invalid config reported valid. Every valid config also survives the trip through the
 * builder state.
 */
class OperationSequencePropertyTest {

    private static final SchemaCatalog CATALOG = new FixtureCatalog();

    /** One tool call: which tool (0 column, 1 filter, 2 join, 3 sort) and its arguments except config. */
    record Step(int tool, ObjectNode arguments) {
        @Override
        public String toString() {
            return List.of("column", "filter", "join", "sort").get(tool) + " " + arguments;
        }
    }

    @Property(tries = 150)
    void sequencesEndValidOrInvalidWithErrors(@ForAll("startConfigs") TableConfig start, @ForAll("steps") List<Step> steps,
                                              @ForAll boolean grounded) {
        SchemaCatalog catalog = grounded ? CATALOG : null;
        Tool[] tools = {new ApplyColumnChangeTool(catalog), new ApplyFilterChangeTool(catalog),
                new ApplyJoinChangeTool(catalog), new ApplySortChangeTool(catalog)};
        JsonNode config = ConfigJson.write(start);
        boolean asText = false;
        for (Step step : steps) {
            ObjectNode args = step.arguments().deepCopy();
            if (asText) {
                args.put("config", Json.write(config));
            } else {
                args.set("config", config);
            }
            asText = !asText;
            ToolOutcome outcome = tools[step.tool()].execute(new ToolInvocation(null, null, null, null, args, Map.of()));
            assertEquals(ToolOutcome.Status.OK, outcome.status(), () -> step + " → " + outcome);
            JsonNode out = assertInstanceOf(ToolOutcome.Ok.class, outcome).output();
            Statistics.label("answers").collect(out.get("valid").asBoolean() ? "valid" : "invalid");
            if (out.get("valid").asBoolean()) {
                assertTrue(out.get("errors").isEmpty(), out::toString);
                ConfigJson.Read read = ConfigJson.read(out.get("config"));
                assertTrue(read.ok(), () -> read.errors().toString());
                assertTrue(ConfigValidator.validate(read.config()).valid(), () -> step + " reported valid: "
                        + ConfigValidator.validate(read.config()).errors());
                // the builder state carries everything: config → state → config is the identity
                TableConfig back = BuilderStateMapping.toConfig(BuilderStateMapping.toState(read.config()), read.config());
                assertEquals(out.get("config"), ConfigJson.write(back));
                config = out.get("config");
            } else {
                assertTrue(out.get("config").isNull(), out::toString);
                assertFalse(out.get("errors").isEmpty(), out::toString);
                for (JsonNode e : out.get("errors")) {
                    assertTrue(e.has("field") && e.has("message"));
                }
            }
        }
    }

    @Provide
    Arbitrary<TableConfig> startConfigs() {
        // The realistic fixture, the empty config, and the fixture with ordering stripped (all valid).
        return Arbitraries.of(0, 1, 2).map(i -> switch (i) {
            case 0 -> Fixtures.orders();
            case 1 -> Fixtures.emptyOrders();
            default -> {
                ObjectNode n = Fixtures.ordersNode();
                n.get("visual_settings").get("columns").forEach(s -> ((ObjectNode) s).remove("order"));
                yield ConfigJson.read(n).config();
            }
        });
    }

    private static final List<String> GOOD_COLUMNS = List.of("id", "status", "total", "created_at", "due_date", "is_paid", "notes",
            "tags", "metadata", "external_ref", "shipped_at", "discount", "name", "first_name", "email", "city", "customer_name",
            "creator_first_name");
    private static final List<String> BAD_COLUMNS = List.of("bogus", "Created At", "x".repeat(64), "drop table;");

    /** Mostly plausible values, sometimes bad ones. */
    private static Arbitrary<String> mostly(List<String> good, List<String> bad) {
        return Arbitraries.frequencyOf(Tuple.of(6, Arbitraries.of(good)), Tuple.of(1, Arbitraries.of(bad)));
    }

    private static Arbitrary<String> columns() {
        return mostly(GOOD_COLUMNS, BAD_COLUMNS);
    }
    private static Arbitrary<String> tables() {
        return mostly(List.of("", "", "", "customers", "users_created_by", "users_approved_by"),
                List.of("orders", "users", "warehouses", "nowhere"));
    }
    private static final List<String> TYPES = List.of("", "integer", "text", "timestamptz", "date", "boolean", "uuid", "jsonb",
            "integer[]", "geometry", "time");
    private static final List<String> VALUES = List.of("null", "5", "\"abc\"", "[1, 2]", "\"2024-01-01\"", "true",
            "[\"a\"]", "{\"x\": 1}", "\"6f1c1f7e-9a57-4c7c-9d31-2f0b3b8f0c11\"");

    @Provide
    Arbitrary<List<Step>> steps() {
        return step().list().ofMinSize(1).ofMaxSize(8);
    }

    private Arbitrary<Step> step() {
        return Arbitraries.oneOf(columnStep(), filterStep(), joinStep(), sortStep());
    }

    private Arbitrary<Step> columnStep() {
        Arbitrary<ObjectNode> column = Combinators.combine(columns(), tables(), Arbitraries.of(TYPES),
                mostly(List.of("", "", "", "alias_x", "Shown Name"), List.of("total", "bad alias!")), Arbitraries.of(true, false, false)).as((name, table, type, alias, hidden) -> {
            ObjectNode c = Json.object().put("name", name).put("hidden", hidden);
            putIf(c, "source_table", table);
            putIf(c, "pg_type", type);
            putIf(c, "alias", alias);
            return c;
        });
        return Combinators.combine(mostly(List.of("add", "add", "remove", "update"), List.of("upsert")), column.list().ofMinSize(1).ofMaxSize(3))
                .as((op, cols) -> {
                    ObjectNode a = Json.object().put("operation", op);
                    ArrayNode arr = a.putArray("columns");
                    cols.forEach(arr::add);
                    return new Step(0, a);
                });
    }

    private Arbitrary<Step> filterStep() {
        return Combinators.combine(Arbitraries.of("add", "add", "remove"), columns(), mostly(List.of("eq", "neq", "gt", "between", "in", "contains", "starts_with", "is_null"), List.of("like", "")),
                Arbitraries.of(VALUES), tables()).as((op, column, operator, value, table) -> {
            ObjectNode f = Json.object().put("column", column);
            putIf(f, "operator", operator);
            putIf(f, "source_table", table);
            f.set("value", parse(value));
            ObjectNode a = Json.object().put("operation", op);
            a.set("filter", f);
            return new Step(1, a);
        });
    }

    /** table, schema, relationship_from, relationship_to: mostly coherent, sometimes not. */
    private static final List<List<String>> GOOD_JOINS = List.of(
            List.of("users", "core", "orders.created_by", "users.id"),
            List.of("users", "core", "orders.approved_by", "users.id"),
            List.of("customers", "sales", "orders.customer_id", "customers.id"),
            List.of("customers", "sales", "", ""),
            List.of("warehouses", "sales", "customers.warehouse_id", "warehouses.id"));
    private static final List<List<String>> BAD_JOINS = List.of(
            List.of("nope", "sales", "orders.id", "nope.id"),
            List.of("users", "core", "bad", "users.id"),
            List.of("orders", "sales", "orders.id", "orders.id"),
            List.of("users", "core", "orders.created_by", "customers.id"));

    private Arbitrary<Step> joinStep() {
        Arbitrary<List<String>> shape = Arbitraries.frequencyOf(Tuple.of(4, Arbitraries.of(GOOD_JOINS)), Tuple.of(1, Arbitraries.of(BAD_JOINS)));
        return Combinators.combine(Arbitraries.of("add", "add", "remove"), shape,
                mostly(List.of("", "", "", "my_alias"), List.of("users_created_by", "customers")),
                columns().list().ofMaxSize(2)).as((op, j, alias, cols) -> {
            ObjectNode join = Json.object().put("table", j.get(0)).put("schema", j.get(1));
            putIf(join, "relationship_from", j.get(2));
            putIf(join, "relationship_to", j.get(3));
            putIf(join, "alias", alias);
            ArrayNode c = join.putArray("columns_to_add");
            cols.forEach(c::add);
            ObjectNode a = Json.object().put("operation", op);
            a.set("join", join);
            return new Step(2, a);
        });
    }

    private Arbitrary<Step> sortStep() {
        Arbitrary<ObjectNode> entry = Combinators.combine(columns(), Arbitraries.of("asc", "desc", "", "up"))
                .as((column, dir) -> {
                    ObjectNode s = Json.object().put("column", column);
                    putIf(s, "direction", dir);
                    return s;
                });
        return Combinators.combine(Arbitraries.of("add", "remove", "set"), entry.list().ofMaxSize(3)).as((op, entries) -> {
            ObjectNode a = Json.object().put("operation", op);
            ArrayNode arr = a.putArray("sort");
            entries.forEach(arr::add);
            return new Step(3, a);
        });
    }

    private static void putIf(ObjectNode o, String key, String value) {
        if (!value.isEmpty()) {
            o.put(key, value);
        }
    }

    private static JsonNode parse(String json) {
        try {
            return Json.parse(json);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
