package dev.tablewright.agent.model;

import java.util.List;

/** A chat-completions message, independent of the client library: what the turn sends the model. */
public sealed interface ModelMessage {

    record System(String text) implements ModelMessage {
    }

    record User(String text) implements ModelMessage {
    }

    /** An assistant step: its text (may be empty) and the tools it called. */
    record Assistant(String text, List<ToolCallRequest> toolCalls) implements ModelMessage {
        public Assistant {
            toolCalls = List.copyOf(toolCalls);
        }
    }

    /** A tool's answer to one call, as the text the model reads (JSON). */
    record ToolResult(String toolCallId, String content) implements ModelMessage {
    }
}
