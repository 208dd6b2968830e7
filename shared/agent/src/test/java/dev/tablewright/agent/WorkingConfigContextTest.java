package dev.tablewright.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.testing.ScriptedChatModel;
import dev.tablewright.agent.testing.RecordedOutput;
import dev.tablewright.agent.memory.MemoryBudget;
import dev.tablewright.agent.memory.Transcript;
import dev.tablewright.agent.toolcall.ToolInvoker;
import dev.tablewright.agent.toolcall.UserInputPort;
import dev.tablewright.config.TableConfig;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.Tool;
import dev.tablewright.toolcontract.ToolArguments;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolInvocation;
import dev.tablewright.toolcontract.ToolOutcome;
import dev.tablewright.toolcontract.ToolRegistry;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The working config reaches a tool as the invocation's own field, never inside the model's arguments: what the model
 * sent is what {@link AgentEvent.ToolCallReady} shows and what the tool's invocation carries, through the envelope a
 * tool function reads (the tools here run behind the invoker contract, envelope encoded and decoded).
 */
class WorkingConfigContextTest {

    static final String PAGE_CONFIG = """
            {"name":"Stock","data_source":[{"schema":"public","source":"stock","select":{"columns":[{"name":"qty"}]}}]}""";
    static final String MODEL_CONFIG = """
            {"name":"Orders","data_source":[{"schema":"public","source":"orders","select":{"columns":[{"name":"id"}]}}]}""";

    /** Takes a config as the operation tools do: read through {@link ToolArguments}, answering which table it read. */
    static final ToolDefinition READ_CONFIG = new ToolDefinition("read_config", "Reads the config it is given.",
            Json.objectLiteral("{\"type\":\"object\",\"properties\":{\"config\":{\"type\":\"object\"},\"note\":{\"type\":\"string\"}},"
                    + "\"required\":[\"config\"]}"),
            null, Set.of("tables"), ToolDefinition.RunsOn.FUNCTION);
    /** Takes no config. */
    static final ToolDefinition COUNT = new ToolDefinition("count", "Counts.",
            Json.objectLiteral("{\"type\":\"object\",\"properties\":{\"table\":{\"type\":\"string\"}}}"),
            null, Set.of("tables"), ToolDefinition.RunsOn.FUNCTION);

    /** What each tool was invoked with, after the envelope's round trip. */
    final List<ToolInvocation> received = new ArrayList<>();

    final Tool readConfig = new Tool() {
        public ToolDefinition definition() {
            return READ_CONFIG;
        }

        public ToolOutcome execute(ToolInvocation invocation) {
            received.add(invocation);
            ToolArguments args = ToolArguments.of(invocation);
            TableConfig config = args.config("config");
            if (!args.ok()) {
                return ToolOutcome.ok(Json.object().put("valid", false).put("error", args.errors().getFirst().message()));
            }
            return ToolOutcome.ok(Json.object().put("valid", true).put("table", config.dataSource().getFirst().source()));
        }
    };

    final Tool count = new Tool() {
        public ToolDefinition definition() {
            return COUNT;
        }

        public ToolOutcome execute(ToolInvocation invocation) {
            received.add(invocation);
            return ToolOutcome.ok(Json.object().put("rows", 3));
        }
    };

    final ScriptedChatModel model = new ScriptedChatModel();
    RecordedOutput out = new RecordedOutput();

    void turn(PageContext page, String tool, String arguments) {
        model.steps.add(AgentLoopTest.call("call_1", tool, arguments));
        model.steps.add(AgentLoopTest.text("Done."));
        List<ToolDefinition> definitions = new ArrayList<>(AgentLoopTest.AGENT_TOOLS);
        definitions.addAll(List.of(READ_CONFIG, COUNT));
        ToolRegistry registry = new ToolRegistry(definitions);
        ToolInvoker invoker = AgentLoopTest.inThisJvm(List.of(readConfig, count));
        new AgentLoop(model, registry, InternalTool.standard(registry, invoker), invoker, UserInputPort.NONE,
                TurnLimits.DEFAULT.withRetryBackoff(Duration.ofMillis(1)), MemoryBudget.DEFAULT, Clock.systemUTC())
                .run(new AgentInput("conv_1", "user_1", page, Optional.empty(), Transcript.EMPTY, "t1",
                        new AgentInput.NewMessage("go"), List.of()), out, Optional.empty());
    }

    static PageContext pageWith(String config) {
        return new PageContext(PageContext.TABLES, null, null, Json.objectLiteral(config));
    }

    JsonNode ready() {
        return out.of(AgentEvent.ToolCallReady.class).getFirst().arguments();
    }

    JsonNode result() {
        return out.of(AgentEvent.ToolResult.class).getFirst().output();
    }

    @Test
    void aCallWithoutConfigKeepsTheModelsArgumentsAndTheToolWorksOnTheWorkingConfig() {
        turn(pageWith(PAGE_CONFIG), "read_config", "{\"note\":\"hi\"}");

        assertEquals(Json.objectLiteral("{\"note\":\"hi\"}"), ready(), "the event shows what the model sent");
        ToolInvocation invocation = received.getFirst();
        assertEquals(Json.objectLiteral("{\"note\":\"hi\"}"), invocation.arguments(), "nothing is written into the arguments");
        assertEquals(Json.objectLiteral(PAGE_CONFIG), invocation.workingConfig(), "the working config is its own field");
        assertEquals("stock", result().path("table").asText(), "the tool took the working config: " + result());
    }

    @Test
    void aConfigTheModelGivesIsTheOneTheToolWorksOn() {
        turn(pageWith(PAGE_CONFIG), "read_config", "{\"config\":" + MODEL_CONFIG + "}");

        ToolInvocation invocation = received.getFirst();
        assertEquals(Json.objectLiteral("{\"config\":" + MODEL_CONFIG + "}"), ready());
        assertEquals(Json.objectLiteral("{\"config\":" + MODEL_CONFIG + "}"), invocation.arguments());
        assertEquals(Json.objectLiteral(PAGE_CONFIG), invocation.workingConfig(), "the working config still goes beside it");
        assertEquals("orders", result().path("table").asText(), "the model's own config wins: " + result());
    }

    @Test
    void withNoWorkingConfigAMissingConfigIsRefusedAsBefore() {
        turn(PageContext.tables(), "read_config", "{}");

        assertNull(received.getFirst().workingConfig());
        assertFalse(result().path("valid").asBoolean(true), result().toString());
        assertEquals("config is missing: pass the current table config (an object, or its JSON text)",
                result().path("error").asText());
    }

    @Test
    void aToolThatTakesNoConfigGetsNoWorkingConfig() {
        turn(pageWith(PAGE_CONFIG), "count", "{\"table\":\"stock\"}");

        ToolInvocation invocation = received.getFirst();
        assertEquals(Json.objectLiteral("{\"table\":\"stock\"}"), invocation.arguments());
        assertNull(invocation.workingConfig(), "only a tool that takes a config is sent one");
    }

    @Test
    void theModelIsToldConfigIsOptionalWhileTheDefinitionStillRequiresIt() {
        turn(pageWith(PAGE_CONFIG), "count", "{}");

        ObjectNode sent = model.requests.getFirst().tools().stream().filter(t -> t.name().equals("read_config"))
                .findFirst().orElseThrow().parameters();
        assertEquals("[]", sent.path("required").toString(), sent.toString());
        assertEquals("The Config to change. Omit it to use the current working config.",
                sent.path("properties").path("config").path("description").asText());
        assertEquals("[\"config\"]", READ_CONFIG.parameters().path("required").toString(),
                "the definition (what MCP and the tool functions read) is not rewritten");
    }
}
