package dev.tablewright.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.toolcall.ToolInvoker;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.ToolRegistry;

import java.util.List;

/**
 * A tool that runs inside the agent itself, on the turn's own state (the tool catalogue, the page's editable
 * fields): dispatched like any other tool, by its definition's name. The composition root gives the loop the ones
 * its door offers; only the agent can write one, since it works on the turn's state.
 */
public sealed interface InternalTool permits SearchToolsTool, EditableFieldTool {

    ToolDefinition definition();

    /** Runs the call; answers the tool's output (what the model and the client read). */
    JsonNode run(TurnState turn, String toolCallId, ObjectNode arguments);

    /** Both: the catalogue search over {@code registry} (the door's tools) and the editable-field update. */
    static List<InternalTool> standard(ToolRegistry registry, ToolInvoker invoker) {
        return List.of(new SearchToolsTool(registry, invoker), new EditableFieldTool());
    }
}
