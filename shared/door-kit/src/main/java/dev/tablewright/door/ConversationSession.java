package dev.tablewright.door;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tablewright.agent.AgentResult;
import dev.tablewright.agent.PageContext;
import dev.tablewright.agent.PausedTurn;
import dev.tablewright.agent.conversation.ConversationMemory;
import dev.tablewright.agent.memory.Transcript;
import dev.tablewright.conversation.StoredConversation;
import dev.tablewright.conversation.StoredMessage;
import dev.tablewright.conversation.WorkingDraft;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A conversation around one turn, whatever door it came through: before it, the history in the door's messages (the
 * stored one when the request brings only the new message), the message the turn continues, the messages to store
 * and the title; after it, however it ended, the messages the user saw. What the agent keeps (the working draft,
 * resolved against the saved configs, and its transcript) is {@link ConversationMemory}'s, the agent side's, stored
 * with these in one write.
 *
 * @param <M> the door's message, read through its {@link DoorMessages}
 */
public final class ConversationSession<M> {

    /** A title made from the first user message is at most this long. */
    public static final int TITLE_CHARS = 80;
    private static final StructuredLog LOG = StructuredLog.of(ConversationSession.class);

    private final ConversationMemory state;
    private final DoorMessages<M> form;

    /**
     * @param state the conversation as the agent keeps it ({@link ConversationMemory#NONE}: the page's context is all
     *              a turn has; nothing is stored)
     * @param form  how the door's messages read
     */
    public ConversationSession(ConversationMemory state, DoorMessages<M> form) {
        this.state = state;
        this.form = form;
    }

    /**
     * What a turn starts from.
     *
     * @param conversationId the conversation (null: none, nothing is stored)
     * @param context    the page the turn sits beside
     * @param history    the whole conversation, the last message being this turn's
     * @param draft      the working draft when the page sends no config or state of its own
     * @param continuing the assistant message the turn continues (a resumed tool call), as the client has it
     * @param toStore    the messages of the request to store (the assistant message the turn writes comes on top)
     * @param title      the title for a conversation that has none yet
     * @param memory     what the agent remembers of the conversation (in the persistence form, where the server keeps
     *                   the history; a client that sends the whole history is its own memory)
     * @param paused     the stored conversation's last turn when it paused: which calls a turn resuming it settles
     */
    public record Prepared<M>(String conversationId, PageContext context, List<M> history, Optional<WorkingDraft> draft, Optional<M> continuing,
                              List<M> toStore, String title, Optional<Transcript> memory, Optional<PausedTurn> paused) {
    }

    /**
     * What a turn of {@code conversationId} starts from.
     *
     * @param messages       the request's messages: the whole history, or with {@code newMessageOnly} the new one alone
     *                       (the server adds the stored history)
     * @param newMessageOnly the request holds only the new message (the server keeps the history)
     * @param context        the page the turn sits beside (its config id resolves the working draft)
     */
    public Prepared<M> prepare(String ownerId, String conversationId, List<M> messages, boolean newMessageOnly,
                               PageContext context) throws BadRequest, ConversationMemory.ConfigNotFound {
        Optional<StoredConversation> stored;
        try {
            stored = state.find(ownerId, conversationId);
        } catch (dev.tablewright.store.StoreUnavailableException e) {
            if (newMessageOnly) {
                throw e; // no history without the store
            }
            // the client sent the whole conversation: the turn can run on the page's context alone
            LOG.warn("the conversation store is unavailable; the turn runs on the request alone", "cause", String.valueOf(e.getMessage()));
            stored = Optional.empty();
        }
        List<M> history;
        if (newMessageOnly) {
            if (!state.stores()) {
                throw new BadRequest("message", "this deployment keeps no conversations: send the whole conversation in messages");
            }
            history = new ArrayList<>(stored.map(this::messages).orElse(List.of()));
            upsert(history, messages.getFirst());
        } else {
            history = messages;
        }
        M last = history.getLast();
        String lastId = form.id(last);
        Optional<M> continuing = "assistant".equals(form.role(last)) && lastId != null && form.json(last) != null
                ? Optional.of(last) : Optional.empty();
        List<M> toStore = new ArrayList<>(messages);
        continuing.ifPresent(c -> toStore.removeIf(m -> lastId.equals(form.id(m))));
        String title = stored.map(s -> s.summary().title()).filter(t -> t != null).isPresent() ? null : title(history);
        ConversationMemory.AgentMemory kept = ConversationMemory.memory(stored); // the stored document, parsed once
        Optional<Transcript> memory = newMessageOnly ? kept.transcript() : Optional.empty();
        return new Prepared<>(conversationId, context, List.copyOf(history), state.draft(ownerId, context, stored), continuing,
                toStore, title, memory, kept.paused());
    }

    /** The request's messages as stored for display (those with an id and their JSON), in order. */
    private List<StoredMessage> requestMessages(Prepared<M> prepared) {
        List<StoredMessage> messages = new ArrayList<>();
        for (M m : prepared.toStore()) {
            JsonNode json = form.json(m);
            if (form.id(m) != null && json != null) {
                messages.add(new StoredMessage(form.id(m), form.role(m), Json.write(json)));
            }
        }
        return messages;
    }

    /** Whether the turn's answer is stored (a conversation store, and a conversation id): then it outlives its client. */
    public boolean keeps(Prepared<M> prepared) {
        return state.keeps(prepared.conversationId());
    }

    /**
     * Stores the request's messages as the turn starts (the user's question), so a page reloaded while the turn runs
     * shows it above the answer it resumes; {@link #save} stores them again with the answer (same ids: replaced,
     * not repeated). Never throws.
     */
    public void saveStart(String ownerId, Prepared<M> prepared) {
        state.saveStart(ownerId, prepared.conversationId(), requestMessages(prepared), prepared.title());
    }

    /**
     * Stores the turn (the messages for display with the {@code answer} the turn wrote, when it wrote one, and what
     * the agent keeps of {@code result}): never throws (the turn has already been streamed; a failure here is logged).
     *
     * @return false when the turn could not be stored (the user's message, stored as the turn started, stays)
     */
    public boolean save(String ownerId, Prepared<M> prepared, Optional<StoredMessage> answer, AgentResult result) {
        List<StoredMessage> messages = requestMessages(prepared);
        answer.ifPresent(messages::add);
        return state.save(ownerId, prepared.conversationId(), messages, prepared.title(), result);
    }

    private List<M> messages(StoredConversation conversation) {
        List<M> out = new ArrayList<>();
        for (StoredMessage m : conversation.messages()) {
            try {
                out.add(form.read(Json.objectLiteral(m.json()), "stored message " + m.id()));
            } catch (BadRequest | IllegalStateException e) {
                // a stored message this version cannot read: the model sees the rest of the history
                LOG.warn("a stored message was skipped", "messageId", m.id(), "problem", e.getMessage());
            }
        }
        return out;
    }

    private void upsert(List<M> history, M message) {
        for (int i = 0; i < history.size(); i++) {
            if (form.id(message) != null && form.id(message).equals(form.id(history.get(i)))) {
                history.set(i, message);
                return;
            }
        }
        history.add(message);
    }

    private String title(List<M> history) {
        for (M m : history) {
            if ("user".equals(form.role(m))) {
                String t = form.text(m).strip().replaceAll("\\s+", " ");
                if (!t.isEmpty()) {
                    return t.length() <= TITLE_CHARS ? t : t.substring(0, TITLE_CHARS - 1).strip() + "…";
                }
            }
        }
        return null;
    }
}
