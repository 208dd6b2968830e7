package dev.tablewright.checks.docs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.AgentInput;
import dev.tablewright.agent.AgentLoop;
import dev.tablewright.agent.testing.RecordedOutput;
import dev.tablewright.agent.AgentResult;
import dev.tablewright.agent.InternalTool;
import dev.tablewright.agent.PageContext;
import dev.tablewright.agent.StopReason;
import dev.tablewright.agent.TurnLimits;
import dev.tablewright.agent.memory.Transcript;
import dev.tablewright.agent.toolcall.ToolInvoker;
import dev.tablewright.agent.toolcall.UserInputPort;
import dev.tablewright.catalogue.ToolCatalogue;
import dev.tablewright.checks.docs.guide.CountRowsFunction;
import dev.tablewright.checks.docs.guide.DatabaseToolDefinitions;
import dev.tablewright.fakes.model.ModelScript;
import dev.tablewright.fakes.model.ScriptedModelServer;
import dev.tablewright.fakes.sampledb.SampleDatabase;
import dev.tablewright.fakes.template.SamTemplate;
import dev.tablewright.fakes.tools.InProcessToolInvoker;
import dev.tablewright.json.Json;
import dev.tablewright.lambda.Env;
import dev.tablewright.mcp.McpToolCatalogue;
import dev.tablewright.openai.ModelSettings;
import dev.tablewright.openai.OpenAiChatModel;
import dev.tablewright.postgres.DatabaseUrl;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolRegistry;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/adding-a-tool.md's example is real code: its Java blocks are the example's sources in {@code guide/} (from
 * the class comment on), which this module compiles, and the example tool answers through its Lambda handler on the
 * sample database, as a deployed tool function would.
 */
class AddingAToolGuideTest {

    private static final Path ROOT = SamTemplate.locate().getParent();
    private static final Path EXAMPLE = ROOT.resolve("infra/build-checks/src/test/java/dev/tablewright/checks/docs/guide");
    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL);

    /** The discontinued items (few enough to count them all), showing their sku and {@code column}. */
    private static String discontinuedItems(String column) {
        return """
                {"name": "Discontinued items", "data_source": [{"schema": "inventory", "source": "items",
                  "select": {"columns": [{"name": "sku"}, {"name": "%1$s"}, {"name": "discontinued"}]},
                  "filters": [{"column": "discontinued", "operator": "eq", "value": true}]}],
                 "visual_settings": {"columns": {"sku": {"type": "string"}, "%1$s": {"type": "string"},
                   "discontinued": {"type": "boolean", "hidden": true}}}}""".formatted(column);
    }

    private static final String ORDERS = """
            {"name": "Orders", "data_source": [{"schema": "sales", "source": "orders", "select": {"columns": [{"name": "id"}]}}],
             "visual_settings": {"columns": {"id": {"type": "number"}}}}""";

    @AfterEach
    void clearEnvironment() {
        Env.clearOverrides();
    }

    @Test
    void theGuidesJavaBlocksAreTheExamplesSources() throws Exception {
        List<String> blocks = new ArrayList<>();
        Matcher m = JAVA_BLOCK.matcher(Files.readString(ROOT.resolve("docs/adding-a-tool.md")).replace("\r\n", "\n"));
        while (m.find()) {
            blocks.add(m.group(1));
        }
        assertEquals(List.of(fromTheClassComment("CountRowsTool.java"), theDefinition(), fromTheClassComment("CountRowsFunction.java")), blocks,
                "docs/adding-a-tool.md shows the example as it is in " + ROOT.relativize(EXAMPLE)
                        + " (after its imports): change both together");
    }

    @Test
    void theExampleCountsTheRowsOfAConfigThroughItsHandler() throws Exception {
        DatabaseUrl sample = SampleDatabase.ensureLoaded();
        Env.override(Map.of("DATABASE_URL", sample.jdbcUrlWithCredentials(), "DATA_SOURCES", "", "DATABASE_SECRET_ARN", ""));
        CountRowsFunction function = new CountRowsFunction();
        assertEquals(DatabaseToolDefinitions.COUNT_ROWS, function.definition(), "one database: nothing to choose, nothing declared");

        JsonNode counted = invoke(function, Map.of(), "{\"config\": " + discontinuedItems("name") + "}");
        assertEquals("ok", counted.path("status").asText(), counted::toPrettyString);
        assertEquals(count(sample, "SELECT count(*) FROM inventory.items WHERE discontinued"), counted.at("/output/count").asLong());
        assertFalse(counted.at("/output/more").asBoolean());
        assertEquals("default", counted.at("/output/database").asText());

        JsonNode orders = invoke(function, Map.of(), "{\"config\": " + ORDERS + "}");
        assertEquals(1000, orders.at("/output/count").asLong(), orders::toPrettyString);
        assertTrue(orders.at("/output/more").asBoolean(), "the sample has more than 1000 orders");

        JsonNode unknown = invoke(function, Map.of(), "{\"config\": " + discontinuedItems("nmae") + "}");
        assertEquals("error", unknown.path("status").asText(), unknown::toPrettyString);
        assertEquals("invalid_arguments", unknown.at("/error/code").asText());
        assertTrue(unknown.at("/error/message").asText().contains("nmae"), unknown::toPrettyString);
        JsonNode none = invoke(function, Map.of(), "{}");
        assertEquals("invalid_arguments", none.at("/error/code").asText(), none::toPrettyString);
        assertTrue(none.at("/error/message").asText().startsWith("config"), none::toPrettyString);
    }

    @Test
    void withSeveralDatabasesTheExampleAsksWhichOneFirst() throws Exception {
        String url = SampleDatabase.ensureLoaded().jdbcUrlWithCredentials();
        ObjectNode sources = Json.object();
        sources.putObject("production").put("url", url);
        sources.putObject("staging").put("url", url);
        Env.override(Map.of("DATA_SOURCES", Json.write(sources)));
        CountRowsFunction function = new CountRowsFunction();

        JsonNode asked = invoke(function, Map.of(), "{\"config\": " + discontinuedItems("name") + "}");
        assertEquals("needs_input", asked.path("status").asText(), asked::toPrettyString);
        assertEquals("database", asked.at("/request/fields/0/name").asText(), asked::toPrettyString);

        JsonNode counted = invoke(function, Map.of("database", "staging"), "{\"config\": " + discontinuedItems("name") + "}");
        assertEquals("ok", counted.path("status").asText(), counted::toPrettyString);
        assertEquals("staging", counted.at("/output/database").asText());
    }

    @Test
    void withItsOneCatalogueLineTheExampleIsOnTheChatAndOnMcp() throws Exception {
        List<ToolDefinition> catalogue = new ArrayList<>(ToolCatalogue.DEFINITIONS);
        catalogue.add(DatabaseToolDefinitions.COUNT_ROWS); // the guide's line in ToolCatalogue.DEFINITIONS
        List<String> twoDatabases = List.of("production", "staging");

        McpSchema.Tool onMcp = new McpToolCatalogue(ToolCatalogue.registry(catalogue, twoDatabases)).tools().stream()
                .filter(t -> t.name().equals("count_rows")).findFirst().orElseThrow(() -> new AssertionError("count_rows is not on MCP"));
        assertEquals("Count rows", onMcp.title());
        assertEquals(Boolean.TRUE, onMcp.annotations().readOnlyHint());
        JsonNode mcpSchema = Json.MAPPER.valueToTree(onMcp.inputSchema());
        assertEquals("[\"production\",\"staging\"]", mcpSchema.at("/properties/database/enum").toString(),
                "with several databases, MCP's schema offers the choice");

        try (ScriptedModelServer model = ScriptedModelServer.start()) {
            model.enqueue(ModelScript.builder().say("I can count them.").build());
            ToolRegistry chat = ToolCatalogue.registry(catalogue, twoDatabases).offeredOn(ToolDefinition.Audience.AGENT);
            ToolInvoker none = new InProcessToolInvoker(List.of());
            AgentLoop agent = new AgentLoop(new OpenAiChatModel(new ModelSettings(model.baseUrl(), "scripted-model",
                    "sk-test-not-a-secret", Duration.ofSeconds(10))), chat, InternalTool.standard(chat, none), none,
                    UserInputPort.NONE, TurnLimits.DEFAULT, Clock.systemUTC());
            RecordedOutput out = new RecordedOutput();
            AgentResult result = agent.run(new AgentInput("c_1", "dev-user", PageContext.tables(), Optional.empty(), Transcript.EMPTY,
                    "t1", new AgentInput.NewMessage("how many rows?"), List.of()), out, Optional.empty());
            assertEquals(StopReason.COMPLETED, result.reason(), out.events::toString);
            assertTrue(model.lastRequest().toolNames().contains("count_rows"),
                    "a core tool of the tables page is offered to the chat's model: " + model.lastRequest().toolNames());
        }
    }

    @Test
    void withoutItsTitleTheCatalogueRefusesTheExample() {
        List<ToolDefinition> catalogue = new ArrayList<>(ToolCatalogue.DEFINITIONS);
        catalogue.add(DatabaseToolDefinitions.COUNT_ROWS.titled(null));
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> ToolCatalogue.registry(catalogue, List.of("default")));
        assertTrue(refused.getMessage().contains("'count_rows' is offered on MCP_HOST without a title"), refused.getMessage());
    }

    /** The example's definition as the guide shows it: the constant, without the class around it. */
    private static String theDefinition() throws Exception {
        List<String> lines = Files.readAllLines(EXAMPLE.resolve("DatabaseToolDefinitions.java"), StandardCharsets.UTF_8);
        int start = 0;
        while (!lines.get(start).contains("public static final ToolDefinition COUNT_ROWS")) {
            start++;
        }
        int end = start;
        while (!lines.get(end).strip().endsWith(";") && !lines.get(end).contains("; //")) {
            end++;
        }
        return String.join("\n", lines.subList(start, end + 1).stream().map(l -> l.substring(Math.min(4, l.length()))).toList()) + "\n";
    }

    /** The source after its package and imports: what the guide shows. */
    private static String fromTheClassComment(String file) throws Exception {
        List<String> lines = Files.readAllLines(EXAMPLE.resolve(file), StandardCharsets.UTF_8);
        int start = 0;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("package ") || lines.get(i).startsWith("import ")) {
                start = i + 1;
            }
        }
        while (start < lines.size() && lines.get(start).isBlank()) {
            start++;
        }
        return String.join("\n", lines.subList(start, lines.size())) + "\n";
    }

    /** The invocation envelope the chat function sends (docs/tools.md), through the handler's whole path. */
    private static JsonNode invoke(CountRowsFunction function, Map<String, String> sessionValues, String arguments) throws Exception {
        ObjectNode envelope = Json.object().put("tool", "count_rows").put("toolCallId", "call_1").put("conversationId", "c_1")
                .put("userId", "dev-user");
        envelope.set("arguments", Json.parse(arguments));
        ObjectNode session = envelope.putObject("sessionValues");
        sessionValues.forEach(session::put);
        byte[] answer = function.answer(new ByteArrayInputStream(Json.write(envelope).getBytes(StandardCharsets.UTF_8)), "req-1");
        return Json.parse(new String(answer, StandardCharsets.UTF_8));
    }

    private static long count(DatabaseUrl url, String sql) throws Exception {
        try (Connection c = url.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
