package dev.tablewright.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.agent.testing.ScriptedChatModel;
import dev.tablewright.agent.testing.RecordedOutput;
import dev.tablewright.agent.memory.MemoryBudget;
import dev.tablewright.agent.memory.Transcript;
import dev.tablewright.agent.model.ModelTool;
import dev.tablewright.agent.toolcall.ToolInvoker;
import dev.tablewright.agent.toolcall.UserInputPort;
import dev.tablewright.catalogue.ToolCatalogue;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolRegistry;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tool schemas the chat's model is sent, byte for byte. {@code chat-tool-schemas.json} holds every chat tool of
 * the catalogue as the model was sent it (name, description, arguments' schema) when the chat still rewrote each
 * schema per step, for one data source and for two; the schemas now derived once from the definitions must be those
 * bytes, and the definitions themselves (what MCP reads) must not have changed.
 */
class ChatToolSchemasTest {

    /** data sources ("a,b") → tool name → the tool as the model was sent it. */
    static Map<String, Map<String, JsonNode>> recorded() throws Exception {
        JsonNode all;
        try (InputStream in = ChatToolSchemasTest.class.getResourceAsStream("chat-tool-schemas.json")) {
            all = Json.parse(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
        }
        Map<String, Map<String, JsonNode>> out = new LinkedHashMap<>();
        all.fieldNames().forEachRemaining(sources -> {
            Map<String, JsonNode> byName = new LinkedHashMap<>();
            all.get(sources).forEach(t -> byName.put(t.path("name").asText(), t));
            out.put(sources, byName);
        });
        return out;
    }

    static String sent(ModelTool tool) {
        return Json.write(Json.object().put("name", tool.name()).put("description", tool.description())
                .set("parameters", tool.parameters()));
    }

    static ToolRegistry chatRegistry(String sources) {
        return ToolCatalogue.registry(List.of(sources.split(","))).offeredOn(ToolDefinition.Audience.AGENT);
    }

    @Test
    void everyChatToolIsSentAsBefore() throws Exception {
        for (var entry : recorded().entrySet()) {
            ToolRegistry registry = chatRegistry(entry.getKey());
            assertEquals(entry.getValue().keySet(), new java.util.LinkedHashSet<>(registry.all().stream().map(ToolDefinition::name).toList()),
                    "the chat's tools, for " + entry.getKey());
            for (ToolDefinition t : registry.all()) {
                ModelTool tool = new ModelTool(t.name(), t.description(), registry.chatParameters(t));
                assertEquals(Json.write(entry.getValue().get(t.name())), sent(tool), t.name() + " with " + entry.getKey());
            }
        }
    }

    @Test
    void theModelRequestCarriesThemAndTheDefinitionsKeepConfigRequired() throws Exception {
        Map<String, JsonNode> recorded = recorded().get("default");
        ToolRegistry registry = chatRegistry("default");
        ScriptedChatModel model = new ScriptedChatModel();
        model.steps.add(AgentLoopTest.text("Hello."));
        ToolInvoker invoker = AgentLoopTest.inThisJvm(List.of());
        new AgentLoop(model, registry, InternalTool.standard(registry, invoker), invoker, UserInputPort.NONE,
                TurnLimits.DEFAULT.withRetryBackoff(Duration.ofMillis(1)), MemoryBudget.DEFAULT, Clock.systemUTC())
                .run(new AgentInput("conv_1", "user_1", PageContext.tables(), Optional.empty(), Transcript.EMPTY, "t1",
                        new AgentInput.NewMessage("hello"), List.of()), new RecordedOutput(), Optional.empty());

        List<ModelTool> tools = model.requests.getFirst().tools();
        List<String> names = new ArrayList<>();
        for (ModelTool tool : tools) {
            names.add(tool.name());
            assertEquals(Json.write(recorded.get(tool.name())), sent(tool), tool.name());
        }
        assertEquals(registry.coreTools(PageContext.TABLES).stream().map(ToolDefinition::name).toList(), names);
        assertTrue(names.contains("apply_filter_change"), names.toString());

        ToolDefinition filter = registry.get("apply_filter_change");
        assertTrue(filter.parameters().path("required").toString().contains("\"config\""),
                "the definition MCP offers still requires config: " + filter.parameters().path("required"));
        assertNotEquals(Json.write(filter.parameters()), Json.write(registry.chatParameters(filter)));
        assertTrue(registry.chatParameters(filter) == registry.chatParameters(filter), "derived once, not per request");
    }
}
