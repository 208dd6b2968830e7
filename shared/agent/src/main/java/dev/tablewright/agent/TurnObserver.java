package dev.tablewright.agent;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.model.ModelFailure;
import dev.tablewright.agent.model.ModelMessage;
import dev.tablewright.agent.model.ModelStep;
import dev.tablewright.toolcontract.ToolOutcome;

import java.util.List;

/**
 * Hears what a turn does, as it does it: each model call, each tool call, the turn's end (tracing plugs in here;
 * the turn's own log line and metrics are its {@code TurnRecord}). Called on the turn's thread; a method that
 * throws is a bug of the observer, not of the turn.
 */
public interface TurnObserver {

    /** Hears nothing: what a turn has unless one is given. */
    TurnObserver NONE = conversationId -> Turn.NONE;

    /** A turn starts; what it returns hears the rest of that turn. */
    Turn turnStarted(String conversationId);

    /**
     * Sends what the ended turns left behind (their spans). The host calls it once the answer is complete, before
     * the invocation ends: Lambda freezes the process after, and a batch left waiting might never go.
     */
    default void flush() {
    }

    /** One turn, from its start to its end. */
    interface Turn {
        Turn NONE = new Turn() {
        };

        /** An attempt at a model call, with what the model is sent. */
        default void modelCallStarted(List<ModelMessage> messages) {
        }

        default void modelCallEnded(ModelStep step) {
        }

        default void modelCallFailed(ModelFailure failure) {
        }

        /** A server-side tool call starts, with the arguments it runs with. */
        default void toolCallStarted(String toolCallId, String toolName, ObjectNode arguments) {
        }

        default void toolCallEnded(String toolCallId, String toolName, ToolOutcome outcome) {
        }

        /** The turn ended (called once, after everything else). */
        default void turnEnded(StopReason reason) {
        }
    }
}
