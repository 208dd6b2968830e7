package dev.tablewright.aisdk.conversation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.AgentResult;
import dev.tablewright.agent.PausedTurn;
import dev.tablewright.agent.conversation.ConversationState;
import dev.tablewright.agent.memory.Transcript;
import dev.tablewright.configstore.ConfigStore;
import dev.tablewright.conversation.ConversationService;
import dev.tablewright.conversation.ConversationStore;
import dev.tablewright.conversation.StoredConversation;
import dev.tablewright.conversation.StoredMessage;
import dev.tablewright.conversation.WorkingDraft;
import dev.tablewright.aisdk.request.BadChatRequest;
import dev.tablewright.aisdk.request.ChatRequest;
import dev.tablewright.aisdk.request.ChatRequestParser;
import dev.tablewright.aisdk.request.UiMessage;
import dev.tablewright.aisdk.request.UiPart;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.validation.ValidationError;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The AI SDK's projection of a conversation around a turn: before it, the UI history (the stored one when the request
 * brings only the new message), the message the turn continues and the messages to store; after it, however it ended,
 * the UI messages the user saw. What the agent keeps (the working draft, resolved against the saved configs, and its
 * transcript) is {@link ConversationState}'s, the agent side's, stored with these in one write.
 */
public final class ConversationMemory {

    /** A title made from the first user message is at most this long. */
    public static final int TITLE_CHARS = 80;
    private static final StructuredLog LOG = StructuredLog.of(ConversationMemory.class);

    /** For a deployment without a conversation store: the page's context is all a turn has; nothing is stored. */
    public static final ConversationMemory NONE = new ConversationMemory(ConversationState.NONE);

    private final ConversationState state;
    private final ChatRequestParser parser = new ChatRequestParser();

    public ConversationMemory(ConversationState state) {
        this.state = state;
    }

    /** The conversation as the agent keeps it on {@code store}, its drafts resolved against {@code configs}. */
    public ConversationMemory(ConversationStore store, ConversationService conversations, ConfigStore configs, Clock clock) {
        this(new ConversationState(store, conversations, configs, clock));
    }

    /**
     * What a turn starts from.
     *
     * @param request    the request over the whole conversation
     * @param draft      the working draft when the page sends no config or state of its own
     * @param continuing the assistant message the turn continues (a resumed tool call), as the client has it
     * @param toStore    the messages of the request to store (the assistant message the turn writes comes on top)
     * @param title      the title for a conversation that has none yet
     * @param memory     what the agent remembers of the conversation (in the persistence form, where the server keeps
     *                   the history; a client that sends the whole history is its own memory)
     * @param paused     the stored conversation's last turn when it paused: which calls a turn resuming it settles
     */
    public record Prepared(ChatRequest request, Optional<WorkingDraft> draft, Optional<JsonNode> continuing,
                           List<UiMessage> toStore, String title, Optional<Transcript> memory, Optional<PausedTurn> paused) {
    }

    public Prepared prepare(String ownerId, ChatRequest request) throws BadChatRequest, ConversationState.ConfigNotFound {
        Optional<StoredConversation> stored;
        try {
            stored = state.find(ownerId, request.id());
        } catch (dev.tablewright.store.StoreUnavailableException e) {
            if (request.newMessageOnly()) {
                throw e; // no history without the store
            }
            // the client sent the whole conversation: the turn can run on the page's context alone
            LOG.warn("the conversation store is unavailable; the turn runs on the request alone", "cause", String.valueOf(e.getMessage()));
            stored = Optional.empty();
        }
        List<UiMessage> history;
        if (request.newMessageOnly()) {
            if (!state.stores()) {
                throw new BadChatRequest("message", "this deployment keeps no conversations: send the whole conversation in messages");
            }
            history = new ArrayList<>(stored.map(this::messages).orElse(List.of()));
            upsert(history, request.messages().getFirst());
        } else {
            history = request.messages();
        }
        ChatRequest whole = request.withHistory(history);
        UiMessage last = history.getLast();
        Optional<JsonNode> continuing = "assistant".equals(last.role()) && last.id() != null
                ? Optional.ofNullable(last.json()) : Optional.empty();
        List<UiMessage> toStore = new ArrayList<>(request.messages());
        continuing.ifPresent(c -> toStore.removeIf(m -> last.id().equals(m.id())));
        String title = stored.map(s -> s.summary().title()).filter(t -> t != null).isPresent() ? null : title(history);
        ConversationState.AgentMemory kept = ConversationState.memory(stored); // the stored document, parsed once
        Optional<Transcript> memory = request.newMessageOnly() ? kept.transcript() : Optional.empty();
        return new Prepared(whole, state.draft(ownerId, request.context(), stored), continuing, toStore, title, memory,
                kept.paused());
    }

    /** The request's messages as stored for display (those with an id and their JSON), in order. */
    private static List<StoredMessage> requestMessages(Prepared prepared) {
        List<StoredMessage> messages = new ArrayList<>();
        for (UiMessage m : prepared.toStore()) {
            if (m.id() != null && m.json() != null) {
                messages.add(new StoredMessage(m.id(), m.role(), Json.write(m.json())));
            }
        }
        return messages;
    }

    /** Whether the turn's answer is stored (a conversation store, and a conversation id): then it outlives its client. */
    public boolean keeps(Prepared prepared) {
        return state.keeps(prepared.request().id());
    }

    /**
     * Stores the request's messages as the turn starts (the user's question), so a page reloaded while the turn runs
     * shows it above the answer it resumes; {@link #save} stores them again with the answer (same ids: replaced,
     * not repeated). Never throws.
     */
    public void saveStart(String ownerId, Prepared prepared) {
        state.saveStart(ownerId, prepared.request().id(), requestMessages(prepared), prepared.title());
    }

    /**
     * Stores the turn (the messages for display with the assistant's, and what the agent keeps of {@code result}):
     * never throws (the turn has already been streamed; a failure here is logged).
     *
     * @return false when the turn could not be stored (the user's message, stored as the turn started, stays)
     */
    public boolean save(String ownerId, Prepared prepared, ObjectNode assistant, AgentResult result) {
        List<StoredMessage> messages = requestMessages(prepared);
        String assistantId = assistant.path("id").asText("");
        if (!assistantId.isEmpty() && !assistant.path("parts").isEmpty()) {
            messages.add(new StoredMessage(assistantId, "assistant", Json.write(assistant)));
        }
        return state.save(ownerId, prepared.request().id(), messages, prepared.title(), result);
    }

    private List<UiMessage> messages(StoredConversation conversation) {
        List<UiMessage> out = new ArrayList<>();
        for (StoredMessage m : conversation.messages()) {
            try {
                out.add(parser.message(Json.objectLiteral(m.json()), "stored message " + m.id()));
            } catch (BadChatRequest | IllegalStateException e) {
                // a stored message this version cannot read: the model sees the rest of the history
                LOG.warn("a stored message was skipped", "messageId", m.id(), "problem", e.getMessage());
            }
        }
        return out;
    }

    private static void upsert(List<UiMessage> history, UiMessage message) {
        for (int i = 0; i < history.size(); i++) {
            if (message.id() != null && message.id().equals(history.get(i).id())) {
                history.set(i, message);
                return;
            }
        }
        history.add(message);
    }

    private static String title(List<UiMessage> history) {
        for (UiMessage m : history) {
            if ("user".equals(m.role())) {
                StringBuilder text = new StringBuilder();
                m.parts().forEach(p -> {
                    if (p instanceof UiPart.Text t) {
                        text.append(t.text()).append(' ');
                    }
                });
                String t = text.toString().strip().replaceAll("\\s+", " ");
                if (!t.isEmpty()) {
                    return t.length() <= TITLE_CHARS ? t : t.substring(0, TITLE_CHARS - 1).strip() + "…";
                }
            }
        }
        return null;
    }
}
