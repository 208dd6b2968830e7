package dev.tablewright.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.agent.memory.Transcript;
import dev.tablewright.agent.model.ModelMessage;
import dev.tablewright.agent.toolcall.ClientTool;
import dev.tablewright.conversation.WorkingDraft;

import java.util.List;
import java.util.Optional;

/**
 * Everything a turn starts from, in the agent's terms: who asks, in which conversation and beside which page, the
 * config it works on, the conversation so far, and what this turn is.
 *
 * @param conversationId the conversation (saved input values and input requests are scoped to it)
 * @param draft          the conversation's working draft, used when the page sends no config or state of its own
 * @param history        the earlier turns (the memory budget decides how much of them the model is sent)
 * @param turnKey        the key this turn is remembered by in the transcript (see {@link dev.tablewright.agent.memory.TranscriptTurn})
 * @param start          a new message, or the resumption of a turn that paused on tool calls
 * @param clientTools    tools the caller runs itself: the turn pauses at their calls
 */
public record AgentInput(String conversationId, String ownerId, PageContext context, Optional<WorkingDraft> draft,
                         Transcript history, String turnKey, TurnStart start, List<ClientTool> clientTools) {
    public AgentInput {
        clientTools = clientTools == null ? List.of() : List.copyOf(clientTools);
        draft = draft == null ? Optional.empty() : draft;
        history = history == null ? Transcript.EMPTY : history;
    }

    /** How a turn begins. */
    public sealed interface TurnStart {
    }

    /** The user said something new. */
    public record NewMessage(String text) implements TurnStart {
    }

    /**
     * A turn that paused on tool calls goes on: {@code soFar} is the turn's messages up to its last step (results of
     * client-side tools included), {@code pending} the calls of that step that still have no result.
     */
    public record Resume(List<ModelMessage> soFar, List<PendingCall> pending) implements TurnStart {
        public Resume {
            soFar = List.copyOf(soFar);
            pending = List.copyOf(pending);
        }
    }

    /**
     * A tool call of a paused turn without a result: a tool waiting for the user's input, or a client tool.
     * {@code waitingFor} is what the agent recorded when the turn paused ({@link PausedTurn}); empty when the door
     * knows the call only from its own wire (then the call's tool decides, as it does for a recorded call).
     */
    public record PendingCall(String toolCallId, String toolName, JsonNode arguments, Optional<DeferredCall.Waiting> waitingFor) {
        public PendingCall {
            waitingFor = waitingFor == null ? Optional.empty() : waitingFor;
        }

        /** A call the door found open on its own wire: nothing recorded of what it waits for. */
        public PendingCall(String toolCallId, String toolName, JsonNode arguments) {
            this(toolCallId, toolName, arguments, Optional.empty());
        }
    }
}
