package dev.tablewright.agent.model;

/** One tool call the model made: its id, the tool's name, and the arguments as the JSON text the model wrote. */
public record ToolCallRequest(String id, String name, String arguments) {
}
