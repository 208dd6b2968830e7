package dev.tablewright.aisdk.conversation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.AgentResult;
import dev.tablewright.agent.PageContext;
import dev.tablewright.agent.memory.Transcript;
import dev.tablewright.agent.memory.TranscriptJson;
import dev.tablewright.aisdk.request.BadChatRequest;
import dev.tablewright.aisdk.request.ChatRequest;
import dev.tablewright.aisdk.request.ChatRequestParser;
import dev.tablewright.aisdk.request.UiMessage;
import dev.tablewright.aisdk.request.UiPart;
import dev.tablewright.codec.ConfigJson;
import dev.tablewright.configstore.ConfigStore;
import dev.tablewright.configstore.StoredConfig;
import dev.tablewright.conversation.ConversationService;
import dev.tablewright.conversation.ConversationStore;
import dev.tablewright.conversation.ConversationTurn;
import dev.tablewright.conversation.DraftSource;
import dev.tablewright.conversation.StoredConversation;
import dev.tablewright.conversation.StoredMessage;
import dev.tablewright.conversation.WorkingDraft;
import dev.tablewright.failure.DomainFailure;
import dev.tablewright.failure.ErrorCode;
import dev.tablewright.json.Json;
import dev.tablewright.logging.StructuredLog;
import dev.tablewright.validation.ValidationError;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The conversation around a turn: before it, the history (the stored one when the request brings only the new
 * message) and the working draft the turn starts from; after it, however it ended, the messages and the draft,
 * stored so that a reload shows what the user saw and the next turn continues where this one stopped.
 */
public final class ConversationMemory {

    /** A title made from the first user message is at most this long. */
    public static final int TITLE_CHARS = 80;
    private static final StructuredLog LOG = StructuredLog.of(ConversationMemory.class);

    /** For a deployment without a conversation store: the page's context is all a turn has; nothing is stored. */
    public static final ConversationMemory NONE = new ConversationMemory(null, null, null, Clock.systemUTC());

    private final ConversationStore store;
    private final ConversationService conversations;
    private final ConfigStore configs;
    private final Clock clock;
    private final ChatRequestParser parser = new ChatRequestParser();

    public ConversationMemory(ConversationStore store, ConversationService conversations, ConfigStore configs, Clock clock) {
        this.store = store;
        this.conversations = conversations;
        this.configs = configs;
        this.clock = clock;
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
     */
    public record Prepared(ChatRequest request, Optional<WorkingDraft> draft, Optional<JsonNode> continuing,
                           List<UiMessage> toStore, String title, Optional<Transcript> memory) {
    }

    /** No saved config by the id the page sent (or not the caller's): nothing of it reaches the model (HTTP 404). */
    public static final class ConfigNotFound extends DomainFailure {
        public ConfigNotFound(String configId) {
            super(Kind.NOT_FOUND, ErrorCode.NOT_FOUND, "no config '" + configId + "'",
                    List.of(new ValidationError("context.configId", "no config '" + configId + "'")), false);
        }
    }

    public Prepared prepare(String ownerId, ChatRequest request) throws BadChatRequest, ConfigNotFound {
        Optional<StoredConversation> stored;
        try {
            stored = store == null || request.id() == null ? Optional.empty() : store.find(ownerId, request.id());
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
            if (store == null) {
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
        Optional<Transcript> memory = request.newMessageOnly()
                ? stored.flatMap(StoredConversation::memory).flatMap(TranscriptJson::read) : Optional.empty();
        return new Prepared(whole, draft(ownerId, request.context(), stored), continuing, toStore, title, memory);
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
        return store != null && prepared.request().id() != null;
    }

    /**
     * Stores the request's messages as the turn starts (the user's question), so a page reloaded while the turn runs
     * shows it above the answer it resumes; {@link #save} stores them again with the answer (same ids: replaced,
     * not repeated). Never throws.
     */
    public void saveStart(String ownerId, Prepared prepared) {
        String id = prepared.request().id();
        if (store == null || id == null) {
            return;
        }
        List<StoredMessage> messages = requestMessages(prepared);
        if (messages.isEmpty()) {
            return;
        }
        try {
            store.saveTurn(ownerId, id, new ConversationTurn(messages, Optional.empty(), prepared.title(), Optional.empty()),
                    clock.instant());
        } catch (RuntimeException e) {
            LOG.warn("the turn's start could not be stored", "conversationId", id, "cause", String.valueOf(e.getMessage()));
        }
    }

    /**
     * Stores the turn (the messages for display, the draft, the agent's memory): never throws (the turn has already
     * been streamed; a failure here is logged).
     */
    public void save(String ownerId, Prepared prepared, ObjectNode assistant, AgentResult result) {
        String id = prepared.request().id();
        if (store == null || id == null) {
            return;
        }
        List<StoredMessage> messages = requestMessages(prepared);
        String assistantId = assistant.path("id").asText("");
        if (!assistantId.isEmpty() && !assistant.path("parts").isEmpty()) {
            messages.add(new StoredMessage(assistantId, "assistant", Json.write(assistant)));
        }
        try {
            store.saveTurn(ownerId, id, new ConversationTurn(messages, result.draft(), prepared.title(),
                    Optional.of(TranscriptJson.write(result.transcript()))), clock.instant());
        } catch (RuntimeException e) {
            LOG.error("the turn could not be stored", e, "conversationId", id);
        }
    }

    private Optional<WorkingDraft> draft(String ownerId, PageContext context, Optional<StoredConversation> stored)
            throws ConfigNotFound {
        if (context.state() != null || context.config() != null) {
            return Optional.empty(); // the page's own config wins
        }
        Optional<WorkingDraft> current = conversations == null ? stored.flatMap(StoredConversation::draft)
                : conversations.current(ownerId, stored.flatMap(StoredConversation::draft));
        if (context.configId() == null) {
            return current;
        }
        if (current.isPresent() && context.configId().equals(current.get().configId())) {
            return current; // the conversation is already building on that config: its draft is newer
        }
        if (configs == null) {
            return Optional.empty();
        }
        StoredConfig saved = configs.get(ownerId, context.configId()).orElseThrow(() -> new ConfigNotFound(context.configId()));
        ObjectNode config = ConfigJson.write(saved.config());
        config.put("id", saved.configId()).put("version", saved.version());
        return Optional.of(new WorkingDraft(Json.write(config), DraftSource.ACCEPTED_VERSION, saved.configId(), saved.version(), null));
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
