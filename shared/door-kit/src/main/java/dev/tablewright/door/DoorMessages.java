package dev.tablewright.door;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.AgentInput;
import dev.tablewright.agent.model.ModelMessage;

import java.util.List;

/**
 * How a door's own messages read, all the kit needs of them: the kit merges, titles, stores and splits a conversation
 * ({@link ConversationSession}, {@link TranscriptSplit}) without knowing the wire they came in.
 *
 * @param <M> the door's message (the AI SDK's UI message, ...)
 */
public interface DoorMessages<M> {

    /** The message's id; null when the client gave none. */
    String id(M message);

    /** {@code user}, {@code assistant} or {@code system}. */
    String role(M message);

    /** Its text, the text parts joined by new lines ({@code ""} without one). */
    String text(M message);

    /** The message as it is stored for display (the door's own JSON); null when it has none. */
    JsonNode json(M message);

    /** A stored message read back ({@code where} names it in the problem); one this version cannot read is refused. */
    M read(ObjectNode stored, String where) throws BadRequest;

    /** Messages as the model reads them, and the tool calls of the last assistant step that have no result yet. */
    Converted convert(List<M> messages);

    /**
     * @param messages   the history in model messages
     * @param unanswered the last assistant step's calls without a result, as the door's wire has them
     */
    record Converted(List<ModelMessage> messages, List<AgentInput.PendingCall> unanswered) {
        public Converted {
            messages = List.copyOf(messages);
            unanswered = List.copyOf(unanswered);
        }
    }
}
