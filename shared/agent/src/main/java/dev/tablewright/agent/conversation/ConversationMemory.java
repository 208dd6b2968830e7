package dev.tablewright.agent.conversation;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablewright.agent.AgentResult;
import dev.tablewright.agent.PageContext;
import dev.tablewright.agent.PausedTurn;
import dev.tablewright.agent.memory.Transcript;
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
import java.util.List;
import java.util.Optional;

/**
 * A conversation as the agent keeps it, for every door: before a turn, the stored conversation, the agent's
 * transcript of it and the working draft the turn starts from (resolved against the saved configs); after it, the
 * draft and the transcript of the {@link AgentResult}, stored with the messages the door shows (its projection of the
 * turn) in one write. The store is the domain's {@link ConversationStore}: {@code find}, {@code saveTurn} and
 * {@code delete} are LangChain4j's {@code ChatMemoryStore} ({@code getMessages}, {@code updateMessages},
 * {@code deleteMessages}) adapted to a conversation that keeps both what the agent remembers and what the page shows.
 */
public final class ConversationMemory {

    private static final StructuredLog LOG = StructuredLog.of(ConversationMemory.class);

    /** For a deployment without a conversation store: the page's context is all a turn has; nothing is stored. */
    public static final ConversationMemory NONE = new ConversationMemory(null, null, null, Clock.systemUTC());

    private final ConversationStore store;
    private final ConversationService conversations;
    private final ConfigStore configs;
    private final Clock clock;

    public ConversationMemory(ConversationStore store, ConversationService conversations, ConfigStore configs, Clock clock) {
        this.store = store;
        this.conversations = conversations;
        this.configs = configs;
        this.clock = clock;
    }

    /** No saved config by the id the page sent (or not the caller's): nothing of it reaches the model (HTTP 404). */
    public static final class ConfigNotFound extends DomainFailure {
        public ConfigNotFound(String configId) {
            super(Kind.NOT_FOUND, ErrorCode.NOT_FOUND, "no config '" + configId + "'",
                    List.of(new ValidationError("context.configId", "no config '" + configId + "'")), false);
        }
    }

    /** Whether conversations are stored at all. */
    public boolean stores() {
        return store != null;
    }

    /** Whether a turn of {@code conversationId} is stored (a store, and an id): then it outlives its client. */
    public boolean keeps(String conversationId) {
        return store != null && conversationId != null;
    }

    /** The stored conversation; empty without a store, an id, or such a conversation of the owner's. */
    public Optional<StoredConversation> find(String ownerId, String conversationId) {
        return store == null || conversationId == null ? Optional.empty() : store.find(ownerId, conversationId);
    }

    /**
     * What the agent keeps of a stored conversation, read from its one document once.
     *
     * @param transcript what the agent remembers (empty for a conversation stored before it kept a transcript)
     * @param paused     the last turn, when it paused on open calls: the agent's own record of which calls a door
     *                   resuming that turn must settle (empty without one, or for a conversation stored before it was kept)
     */
    public record AgentMemory(Optional<Transcript> transcript, Optional<PausedTurn> paused) {
        public static final AgentMemory NONE = new AgentMemory(Optional.empty(), Optional.empty());
    }

    /** What the agent keeps of {@code stored}: {@link AgentMemory#NONE} without a conversation or a memory. */
    public static AgentMemory memory(Optional<StoredConversation> stored) {
        return stored.flatMap(StoredConversation::memory).map(AgentMemoryJson::read).orElse(AgentMemory.NONE);
    }

    /**
     * The working draft a turn starts from: none when the page sends its own config or state (the page's wins); the
     * config the page names by id, as saved, unless the conversation is already building on it (its draft is newer);
     * else the conversation's draft, as current as the previews and configs it refers to.
     */
    public Optional<WorkingDraft> draft(String ownerId, PageContext context, Optional<StoredConversation> stored)
            throws ConfigNotFound {
        if (context.state() != null || context.config() != null) {
            return Optional.empty();
        }
        Optional<WorkingDraft> current = conversations == null ? stored.flatMap(StoredConversation::draft)
                : conversations.current(ownerId, stored.flatMap(StoredConversation::draft));
        if (context.configId() == null) {
            return current;
        }
        if (current.isPresent() && context.configId().equals(current.get().configId())) {
            return current;
        }
        if (configs == null) {
            return Optional.empty();
        }
        StoredConfig saved = configs.get(ownerId, context.configId()).orElseThrow(() -> new ConfigNotFound(context.configId()));
        ObjectNode config = ConfigJson.write(saved.config());
        config.put("id", saved.configId()).put("version", saved.version());
        return Optional.of(new WorkingDraft(Json.write(config), DraftSource.ACCEPTED_VERSION, saved.configId(), saved.version(), null));
    }

    /**
     * Stores what a turn starts with (the user's question, as the door shows it), so a page reloaded while the turn
     * runs shows it; {@link #save} stores the messages again with the answer (same ids: replaced). Never throws.
     */
    public void saveStart(String ownerId, String conversationId, List<StoredMessage> shown, String titleIfNew) {
        if (!keeps(conversationId) || shown.isEmpty()) {
            return;
        }
        try {
            store.saveTurn(ownerId, conversationId, new ConversationTurn(shown, Optional.empty(), titleIfNew, Optional.empty()),
                    clock.instant());
        } catch (RuntimeException e) {
            LOG.warn("the turn's start could not be stored", "conversationId", conversationId, "cause", String.valueOf(e.getMessage()));
        }
    }

    /**
     * Stores the turn: the messages the door shows, the draft and the transcript of its result (and the calls it left
     * open when it paused, {@link #paused}), in one write. Never
     * throws (the turn has already been answered; a failure here is logged).
     *
     * @return false when the turn was to be stored and could not be (the store's retries ran out): the door says so
     */
    public boolean save(String ownerId, String conversationId, List<StoredMessage> shown, String titleIfNew, AgentResult result) {
        if (!keeps(conversationId)) {
            return true;
        }
        try {
            store.saveTurn(ownerId, conversationId, new ConversationTurn(shown, result.draft(), titleIfNew,
                    Optional.of(AgentMemoryJson.write(result))), clock.instant());
            return true;
        } catch (RuntimeException e) {
            LOG.error("the turn could not be stored", e, "conversationId", conversationId);
            return false;
        }
    }
}
