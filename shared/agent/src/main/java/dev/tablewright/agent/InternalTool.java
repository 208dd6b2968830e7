package dev.tablewright.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.tool.ToolDefinition;

/**
 * A tool that runs inside the agent itself, on the turn's own state (the tool catalogue, the page's editable
 * fields): dispatched like any other tool, by its definition's name.
 */
interface InternalTool {

    ToolDefinition definition();

    /** Runs the call; answers the tool's output (what the model and the client read). */
    JsonNode run(TurnState turn, String toolCallId, ObjectNode arguments);
}
