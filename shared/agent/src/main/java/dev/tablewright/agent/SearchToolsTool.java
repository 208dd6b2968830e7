package dev.tablewright.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.toolcall.ToolInvoker;
import dev.tablewright.json.Json;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolRegistry;
import dev.tablewright.catalogue.AgentToolDefinitions;

import java.util.LinkedHashSet;
import java.util.Set;

/** {@code search_tools}: finds tools beyond the page's core set, which become callable from the next step. */
public final class SearchToolsTool implements InternalTool {

    private final ToolRegistry registry;
    private final ToolInvoker invoker;

    /** @param registry the tools the door offers, where the search looks */
    public SearchToolsTool(ToolRegistry registry, ToolInvoker invoker) {
        this.registry = registry;
        this.invoker = invoker;
    }

    @Override
    public ToolDefinition definition() {
        return AgentToolDefinitions.SEARCH_TOOLS;
    }

    @Override
    public JsonNode run(TurnState s, String toolCallId, ObjectNode arguments) {
        String query = arguments.path("query").asText("");
        int limit = Math.min(5, Math.max(1, arguments.path("limit").asInt(3)));
        Set<String> exclude = new LinkedHashSet<>();
        registry.coreTools(s.page()).forEach(t -> exclude.add(t.name()));
        exclude.addAll(s.discovered.keySet());
        exclude.add(definition().name());
        ObjectNode answer = Json.object();
        ArrayNode found = answer.putArray("tools");
        for (ToolRegistry.Match m : registry.search(query, exclude, limit)) {
            if (m.tool().runsOn() == ToolDefinition.RunsOn.FUNCTION && !invoker.knows(m.tool().name())) {
                continue;
            }
            s.discovered.put(m.tool().name(), m.tool());
            found.addObject().put("name", m.tool().name()).put("description", m.tool().description());
        }
        answer.put("note", found.isEmpty() ? "No further tool matched; try other words." : "These tools are callable from your next step.");
        return answer;
    }
}
