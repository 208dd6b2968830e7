package dev.tablewright.agent.toolcall;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.toolcontract.ToolDefinition;
import dev.tablewright.toolcontract.UserInputRequirement;

import java.util.Map;
import java.util.Optional;

/**
 * What the chat turn needs of the user-input lifecycle: which of a tool's required inputs are still
 * missing, creating a request for them, and reading the answer when the next request resumes the call.
 */
public interface UserInputPort {

    /**
     * The arguments with every known input value merged in, the values to send as {@code sessionValues}, and what
     * is still missing (empty when the tool can run).
     */
    record Readiness(ObjectNode arguments, Map<String, String> sessionValues, Optional<UserInputRequirement> missing) {
    }

    /** @param submitted values the user just gave for this very call (a resumed call), over the saved ones */
    Readiness check(String ownerId, String conversationId, ToolDefinition tool, ObjectNode arguments, Map<String, String> submitted);

    /** Creates (or finds, when it exists) the input request of one tool call; answers its request id. */
    String request(String ownerId, String conversationId, String toolCallId, String toolName, UserInputRequirement requirement);

    /** The state of a tool call's input request. */
    record Answer(String requestId, String status, Map<String, String> values) {
        public boolean completed() {
            return "completed".equals(status);
        }

        public boolean pending() {
            return "pending".equals(status);
        }
    }

    Optional<Answer> answer(String ownerId, String conversationId, String toolCallId);

    /** No lifecycle wired: every tool runs as called, no input is ever asked for. */
    UserInputPort NONE = new UserInputPort() {
        @Override
        public Readiness check(String ownerId, String conversationId, ToolDefinition tool, ObjectNode arguments, Map<String, String> submitted) {
            return new Readiness(arguments, submitted, Optional.empty());
        }

        @Override
        public String request(String ownerId, String conversationId, String toolCallId, String toolName, UserInputRequirement requirement) {
            throw new IllegalStateException("no user-input lifecycle is wired");
        }

        @Override
        public Optional<Answer> answer(String ownerId, String conversationId, String toolCallId) {
            return Optional.empty();
        }
    };
}
