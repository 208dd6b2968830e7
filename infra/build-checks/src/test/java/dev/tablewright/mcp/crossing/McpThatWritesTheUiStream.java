package dev.tablewright.mcp.crossing;

import dev.tablewright.aisdk.stream.UiMessageStreamWriter;

/** An MCP class that reaches into the AI SDK's door: what {@code LayersTest} must refuse (used only by its self-check). */
public final class McpThatWritesTheUiStream {
    public Class<?> writer() {
        return UiMessageStreamWriter.class;
    }
}
