package dev.tablewright.agent.toolcall;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** A tool the client runs itself (declared in the request): the stream stops at its input, the next request brings its output. */
public record ClientTool(String name, String description, ObjectNode parameters) {
}
