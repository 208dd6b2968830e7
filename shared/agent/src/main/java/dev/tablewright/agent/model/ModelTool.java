package dev.tablewright.agent.model;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** A tool as the model sees it: name, description and the JSON Schema of its arguments. */
public record ModelTool(String name, String description, ObjectNode parameters) {
}
