package dev.tablewright.agui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * An AG-UI run's request body, read ({@link RunAgentInputParser}): the thread (a conversation of the caller), the
 * run, the client's whole message list, its state, its frontend tools, context and forwarded props, and the
 * answers to the interrupts the thread's last run ended on.
 */
public record RunAgentInput(String threadId, String runId, String parentRunId, String protocolVersion,
                            List<Message> messages, JsonNode state, List<FrontendTool> tools, List<Context> context,
                            JsonNode forwardedProps, List<Resume> resume) {

    public RunAgentInput {
        messages = List.copyOf(messages);
        tools = List.copyOf(tools);
        context = List.copyOf(context);
        resume = List.copyOf(resume);
    }

    /** The client's {@code state.workingConfig} when it sends one (its current config), else null. */
    public ObjectNode workingConfig() {
        JsonNode config = state == null ? null : state.get("workingConfig");
        return config != null && config.isObject() ? (ObjectNode) config : null;
    }

    /** One message; {@code content} is its text (a part list's text parts joined), empty when it has none. */
    public record Message(String id, String role, String content, List<ToolCall> toolCalls, String toolCallId,
                          String error) {
        public Message {
            toolCalls = List.copyOf(toolCalls);
        }
    }

    /** An assistant message's call; {@code arguments} is JSON as text, as the protocol sends it. */
    public record ToolCall(String id, String name, String arguments) {
    }

    /** A tool the client runs itself, offered to the model beside Tablewright's. */
    public record FrontendTool(String name, String description, JsonNode parameters) {
    }

    public record Context(String description, String value) {
    }

    /** The client's answer to one interrupt. */
    public record Resume(String interruptId, Status status, JsonNode payload) {
        public enum Status {
            RESOLVED, CANCELLED
        }
    }
}
