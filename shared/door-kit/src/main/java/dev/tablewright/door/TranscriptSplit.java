package dev.tablewright.door;

import dev.tablewright.agent.AgentInput;
import dev.tablewright.agent.DeferredCall;
import dev.tablewright.agent.PausedTurn;
import dev.tablewright.agent.memory.Transcript;
import dev.tablewright.agent.memory.TranscriptTurn;
import dev.tablewright.agent.memory.TurnDigest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A door's history as the agent's input: the earlier turns (each a user message and the assistant message that
 * answered it) and how this turn starts (a new user message, or the last assistant message resumed). An earlier
 * turn the agent already remembers under the same key (the ids of its messages) is taken from the stored transcript;
 * any other is converted from its UI messages, so an edited, regenerated or client-held history is always right.
 *
 * <p>A resumed turn's open calls are the agent's record when it has one: the stored conversation's
 * {@link PausedTurn} under this turn's key says which calls are open (ids, names, what they wait for), and the
 * resumed message gives only their answers (a client tool's output) and arguments; a recorded call the message
 * answers is settled by that answer, a part the record does not hold is not resumed. Without a record (a client that
 * keeps its own history, a door that sends every message and no stored conversation, or a turn stored before the record
 * was kept) the one fallback, {@link #openCallsOfTheMessage}, takes them from the message: its last step's tool parts
 * without a result.
 */
public final class TranscriptSplit<M> {

    private final DoorMessages<M> form;

    public TranscriptSplit(DoorMessages<M> form) {
        this.form = form;
    }

    /** The earlier turns, this turn's start, and the key this turn is remembered by. */
    public record Split(Transcript history, AgentInput.TurnStart start, String turnKey) {
    }

    /**
     * @param messages  the whole history, the last message being this turn's (a user message, or an assistant message
     *                  that is resumed)
     * @param messageId the id of the assistant message this turn writes
     * @param stored    what the agent remembers of this conversation
     */
    public Split split(List<M> messages, String messageId, Optional<Transcript> stored) {
        return split(messages, messageId, stored, Optional.empty());
    }

    /**
     * As above, with the stored conversation's paused turn: when this turn resumes it (the same key), its calls are
     * the open ones.
     */
    public Split split(List<M> messages, String messageId, Optional<Transcript> stored, Optional<PausedTurn> paused) {
        int current = currentTurnStart(messages);
        List<List<M>> uiTurns = turns(messages.subList(0, current));
        // turns older than the first one the agent still remembers were compacted away on purpose: counted, not converted
        int firstRemembered = 0;
        while (firstRemembered < uiTurns.size() && stored.isPresent()
                && stored.get().find(key(uiTurns.get(firstRemembered), null)).isEmpty()) {
            firstRemembered++;
        }
        if (firstRemembered == uiTurns.size()) {
            firstRemembered = 0; // the agent remembers none of them: convert them all
        }
        List<TranscriptTurn> earlier = new ArrayList<>();
        for (int i = 0; i < uiTurns.size(); i++) {
            List<M> turn = uiTurns.get(i);
            String key = key(turn, null);
            if (i < firstRemembered) {
                earlier.add(new TranscriptTurn(key, List.of(), ""));
                continue;
            }
            earlier.add(stored.flatMap(t -> t.find(key)).orElseGet(() -> {
                DoorMessages.Converted c = form.convert(turn);
                return new TranscriptTurn(key, c.messages(), TurnDigest.of(c.messages()));
            }));
        }
        List<M> now = messages.subList(current, messages.size());
        M last = messages.getLast();
        String turnKey = key(now, messageId);
        AgentInput.TurnStart start;
        if ("assistant".equals(form.role(last))) {
            DoorMessages.Converted c = form.convert(now);
            Optional<PausedTurn> recorded = paused.filter(p -> turnKey.equals(p.turnKey()));
            start = new AgentInput.Resume(c.messages(), recorded.isPresent()
                    ? recordedOpenCalls(recorded.get(), c) : openCallsOfTheMessage(c));
        } else {
            start = new AgentInput.NewMessage(form.text(last));
        }
        return new Split(new Transcript(earlier), start, turnKey);
    }

    /**
     * The calls the agent recorded open when the turn paused, in its order, that the resumed message does not answer:
     * each with its recorded name and what it waits for, and its arguments as the message has them. A recorded call
     * the message answers is settled by its answer (in the history); a part without a result that the record does
     * not hold is not resumed (the model reads it as not completed).
     */
    private static List<AgentInput.PendingCall> recordedOpenCalls(PausedTurn paused, DoorMessages.Converted resumed) {
        Map<String, AgentInput.PendingCall> unanswered = new LinkedHashMap<>();
        resumed.unanswered().forEach(p -> unanswered.put(p.toolCallId(), p));
        List<AgentInput.PendingCall> open = new ArrayList<>();
        for (DeferredCall call : paused.calls()) {
            AgentInput.PendingCall part = unanswered.get(call.toolCallId());
            if (part != null) {
                open.add(new AgentInput.PendingCall(call.toolCallId(), call.toolName(), part.arguments(), Optional.of(call.waitingFor())));
            }
        }
        return open;
    }

    /**
     * The fallback where the agent has no record of the paused turn: the open calls are the resumed message's last
     * step's tool parts without a result (its own wire says which, names and arguments included).
     */
    private static List<AgentInput.PendingCall> openCallsOfTheMessage(DoorMessages.Converted resumed) {
        return resumed.unanswered();
    }

    /** Where this turn's messages begin: its user message (the one before a resumed assistant message). */
    private int currentTurnStart(List<M> messages) {
        int last = messages.size() - 1;
        if (!"assistant".equals(form.role(messages.get(last)))) {
            return last;
        }
        for (int i = last - 1; i >= 0; i--) {
            if ("user".equals(form.role(messages.get(i)))) {
                return i;
            }
        }
        return last;
    }

    /** The history cut into turns, each from a user message up to the next one. */
    private List<List<M>> turns(List<M> messages) {
        List<List<M>> turns = new ArrayList<>();
        List<M> turn = new ArrayList<>();
        for (M m : messages) {
            if ("user".equals(form.role(m)) && !turn.isEmpty()) {
                turns.add(turn);
                turn = new ArrayList<>();
            }
            turn.add(m);
        }
        if (!turn.isEmpty()) {
            turns.add(turn);
        }
        return turns;
    }

    /** A turn's key: the ids of its messages, and of the assistant message this turn writes when it is not one of them. */
    private String key(List<M> turn, String messageId) {
        List<String> ids = new ArrayList<>();
        turn.forEach(m -> ids.add(form.id(m) == null ? "?" : form.id(m)));
        if (messageId != null && !ids.contains(messageId)) {
            ids.add(messageId);
        }
        return String.join("|", ids);
    }
}
