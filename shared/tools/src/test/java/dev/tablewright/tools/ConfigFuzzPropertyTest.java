package dev.tablewright.tools;

import dev.tablewright.codec.ConfigJson;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.fixtures.Fixtures;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.Tool;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.tools.ApplyColumnChangeTool;
import dev.tablewright.tools.ApplyFilterChangeTool;
import dev.tablewright.tools.ApplyJoinChangeTool;
import dev.tablewright.tools.ApplySortChangeTool;
import dev.tablewright.tools.ValidateTableConfigTool;
import dev.tablewright.validation.ConfigValidator;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** Random JSON where a config or a tool's arguments belong: field-level answers, never an exception. */
class ConfigFuzzPropertyTest {

    private static final List<String> KEYS = List.of("id", "name", "data_source", "schema", "source", "select", "columns",
            "foreign_tables", "table", "alias", "join_type", "relationship_from", "relationship_to", "filters", "column",
            "operator", "value", "sort", "direction", "visual_settings", "page_size", "type", "format", "order", "hidden",
            "operation", "filter", "join", "config", "columns_to_add", "x");

    @Provide
    Arbitrary<JsonNode> json() {
        return Arbitraries.lazyOf(
                () -> Arbitraries.strings().ofMaxLength(12).map(JsonNodeFactory.instance::textNode),
                () -> Arbitraries.of("sales", "orders", "id", "eq", "add", "LEFT", "orders.id", "users.id", "datetime", "desc")
                        .map(JsonNodeFactory.instance::textNode),
                () -> Arbitraries.integers().between(-3, 30).map(JsonNodeFactory.instance::numberNode),
                () -> Arbitraries.of(true, false).map(JsonNodeFactory.instance::booleanNode),
                () -> Arbitraries.just(JsonNodeFactory.instance.nullNode()),
                () -> json().list().ofMaxSize(3).map(items -> {
                    ArrayNode a = Json.MAPPER.createArrayNode();
                    items.forEach(a::add);
                    return a;
                }),
                () -> Arbitraries.maps(Arbitraries.of(KEYS), json()).ofMaxSize(4).map(m -> {
                    ObjectNode o = Json.object();
                    m.forEach(o::set);
                    return o;
                }));
    }

    @Property(tries = 200)
    void randomJsonReadsOrReportsFields(@ForAll("json") JsonNode node) {
        ConfigJson.Read read = ConfigJson.read(node);
        if (read.ok()) {
            assertNotNull(ConfigValidator.validate(read.config()));
            assertEquals(Json.write(ConfigJson.write(read.config())), Json.write(ConfigJson.write(ConfigJson.read(ConfigJson.write(read.config())).config())));
        } else {
            assertFalse(read.errors().isEmpty());
        }
    }

    @Property(tries = 200)
    void randomArgumentsGetAnAnswerNotAnException(@ForAll("json") JsonNode node, @ForAll boolean withConfig) {
        if (!(node instanceof ObjectNode args)) {
            return;
        }
        if (withConfig) {
            args.set("config", Fixtures.ordersNode());
        }
        for (Tool tool : List.of(new ApplyColumnChangeTool(), new ApplyFilterChangeTool(), new ApplyJoinChangeTool(),
                new ApplySortChangeTool(), new ValidateTableConfigTool())) {
            ToolOutcome o = tool.execute(new ToolInvocation(null, null, null, null, args.deepCopy(), Map.of()));
            assertEquals(ToolOutcome.Status.OK, o.status(), () -> tool.definition().name() + " " + args + " → " + o);
            assertTrue(assertInstanceOf(ToolOutcome.Ok.class, o).output().get("valid").asBoolean() || !assertInstanceOf(ToolOutcome.Ok.class, o).output().get("errors").isEmpty());
        }
    }
}
