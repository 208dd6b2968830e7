package dev.tablewright.aisdk.crossing;

import dev.tablewright.mcp.McpEndpoint;

/** An AI SDK class that reaches into the MCP door: what {@code LayersTest} must refuse (used only by its self-check). */
public final class AiSdkThatAnswersMcp {
    public Class<?> endpoint() {
        return McpEndpoint.class;
    }
}
